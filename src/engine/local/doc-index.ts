import { layoutPage, type PageLayout } from '../text/layout.ts';
import { contentStems } from '../text/tokenize.ts';
import type { EngineDocument } from '../types.ts';
import { isShorthand } from './synonyms.ts';

/**
 * A passage is a piece of one page that can hold evidence: a sentence of prose, a cell of a
 * form or table (a segment), or a whole form line (label and value side by side).
 */
export interface Passage {
  id: number;
  page: number;
  kind: 'sentence' | 'segment' | 'line';
  line: number;
  /** Word indices of the page, in reading order. */
  words: number[];
  text: string;
  /** Content stems with the word (position in `words`) each came from. */
  stems: string[];
  stemAt: number[];
  tf: Map<string, number>;
}

/** A unit is a passage that values are read from: every word is in exactly one unit. */
export interface DocIndex {
  doc: EngineDocument;
  layouts: PageLayout[];
  passages: Passage[];
  units: Passage[];
  df: Map<string, number>;
  avgLength: number;
  /** Per-document memo of expensive candidate scans (dates, numbers), keyed by extractor. */
  memo: Map<string, unknown>;
  /** The whole-line passage of each form line, by `page:line`. */
  lines: Map<string, Passage>;
}

const MAX_SENTENCE_WORDS = 150;
/**
 * A bullet ("•", "-"). Counts are left out: "(90)", "(b)" and "2." wrap onto a line's start
 * inside a sentence as often as they open an entry ("ninety\n(90) days", "Section\n2.").
 */
const LIST_MARKER = /^[•●▪◦‣*·-]$/;
/** Words that open a letter's salutation, in the languages the engine reads. */
const SALUTATION =
  /^(?:Dear|Hello|Gentlemen|Sirs|Madam|Sehr|Liebe[rs]?|Cher|Chère|Chers|Madame|Monsieur|Messieurs|Geachte|Beste|Estimad[oa]s?|Gentile|Egregi[oa])[,]?$/;
/**
 * A line's first words are a caption: one to three short words, capitalised, the last ending in
 * a colon; or one word of shorthand, as letters print it lower-case ("cc:", "encl:", "tel:").
 */
function opensWithCaption(words: readonly string[]): boolean {
  const end = words.findIndex((w) => w.endsWith(':'));
  if (end === 0 && isShorthand(words[0]!.slice(0, -1))) return true;
  if (end < 0 || !/^\p{Lu}/u.test(words[0] ?? '')) return false;
  return words.slice(0, end + 1).every((w) => /^[\p{L}.]{1,12}:?$/u.test(w));
}
/** Lines whose type sizes differ by more than this (log ratio, about 20%) are not one sentence. */
const SIZE_STEP = 0.18;

export function buildIndex(doc: EngineDocument): DocIndex {
  const layouts = doc.pages.map(layoutPage);
  const passages: Passage[] = [];
  const units: Passage[] = [];
  const add = (p: Omit<Passage, 'id' | 'stems' | 'stemAt' | 'tf' | 'text'>, isUnit: boolean) => {
    const page = doc.pages[p.page]!;
    const stems: string[] = [];
    const stemAt: number[] = [];
    p.words.forEach((w, k) => {
      for (const s of contentStems(page.words[w]!.text)) {
        stems.push(s);
        stemAt.push(k);
      }
    });
    const tf = new Map<string, number>();
    for (const s of stems) tf.set(s, (tf.get(s) ?? 0) + 1);
    const text = p.words.map((w) => page.words[w]!.text).join(' ');
    const passage: Passage = { ...p, id: passages.length, text, stems, stemAt, tf };
    passages.push(passage);
    if (isUnit) units.push(passage);
  };

  layouts.forEach((layout, pageIndex) => {
    let sentence: number[] = [];
    let sentenceLine = 0;
    let lastBottom = -1;
    let lastHeight = 0;
    const flush = () => {
      if (sentence.length)
        add({ page: pageIndex, kind: 'sentence', line: sentenceLine, words: sentence }, true);
      sentence = [];
    };
    const H = layout.page.height || 792;
    layout.lines.forEach((line, li) => {
      if (line.segments.length > 1) {
        flush();
        for (const seg of line.segments)
          add({ page: pageIndex, kind: 'segment', line: li, words: seg.words }, true);
        add({ page: pageIndex, kind: 'line', line: li, words: line.words }, false);
        lastBottom = line.box[3];
        lastHeight = line.height;
        return;
      }
      // A paragraph break (a gap of more than a line) ends a sentence too.
      if (lastBottom >= 0 && (line.box[1] - lastBottom) * H > 1.2 * line.height) flush();
      // So does a change of type size: a title without a full stop does not run on into the
      // smaller line under it ("STATEMENT OF REGISTRATION" / "Please type or print clearly.").
      else if (lastHeight > 0 && Math.abs(Math.log(line.height / lastHeight)) > SIZE_STEP) flush();
      // So does a line that opens with a bullet: a heading without a full stop
      // ("4. Actions for the coming period") does not run on into its first bullet.
      else if (LIST_MARKER.test(layout.page.words[line.words[0]!]?.text ?? '')) flush();
      // And a salutation: the subject line over "Dear Ms. Park," is no part of the letter's first sentence.
      else if (SALUTATION.test(layout.page.words[line.words[0]!]?.text ?? '')) flush();
      // And a line that opens with its own caption ("Re: …", "Subject: …", "Our ref: …"): the
      // address block above it has no full stop to end it.
      else if (opensWithCaption(line.words.slice(0, 3).map((w) => layout.page.words[w]!.text))) flush();
      lastBottom = line.box[3];
      lastHeight = line.height;
      for (const w of line.words) {
        if (sentence.length === 0) sentenceLine = li;
        sentence.push(w);
        const text = layout.page.words[w]!.text;
        if (
          /[.;!?]["”’)]?$/.test(text) &&
          !/^(?:[A-Z]|[a-z]{1,3}|No|Inc|Co|Corp|Ltd|Mr|Ms|Mrs|Dr|St|U\.S|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|\d+)\.$/.test(
            text,
          )
        ) {
          flush();
        } else if (sentence.length >= MAX_SENTENCE_WORDS) flush();
      }
    });
    flush();
  });

  const df = new Map<string, number>();
  let total = 0;
  for (const p of passages) {
    total += p.stems.length;
    for (const s of p.tf.keys()) df.set(s, (df.get(s) ?? 0) + 1);
  }
  return {
    doc,
    layouts,
    passages,
    units,
    df,
    avgLength: passages.length ? total / passages.length : 1,
    memo: new Map(),
    lines: new Map(passages.filter((p) => p.kind === 'line').map((p) => [`${p.page}:${p.line}`, p])),
  };
}

/** Documents are immutable once ingested: their indexes are kept, least recently used dropped. */
const cache = new Map<string, DocIndex>();
const CACHE_SIZE = 64;

export function indexFor(doc: EngineDocument): DocIndex {
  const key = `${doc.fileId}:${doc.pages.length}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    // Membership (primary, role, effectiveAt) differs per bundle: keep the caller's.
    return hit.doc === doc ? hit : { ...hit, doc };
  }
  const index = buildIndex(doc);
  cache.set(key, index);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return index;
}
