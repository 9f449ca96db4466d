import type { Candidate } from '../candidates.ts';
import type { Passage } from '../doc-index.ts';
import { labelScore, topPassages } from '../retrieval.ts';
import {
  type Context,
  cite,
  evidence,
  evidenceScore,
  mergeOptions,
  type Option,
  positionPrior,
} from './common.ts';
import { dateOptions } from './dates.ts';
import { durationOptions } from './durations.ts';
import { numberOptions } from './numbers.ts';

const MAX_LABEL_WORDS = 5;

/**
 * Values that follow a label: the rest of a unit after a label prefix ("Advertiser: X",
 * "Invoice # 123"), or a whole form/table cell (its label is left of it or above it).
 */
export function valueCandidates(ctx: Context): Candidate<string>[] {
  const out: Candidate<string>[] = [];
  const pages = ctx.index.doc.pages;
  for (const unit of ctx.index.units) {
    const words = unit.words.map((w) => pages[unit.page]!.words[w]!.text);
    if (unit.kind === 'segment') out.push(candidate(unit, 0, words.length - 1, words));
    for (let k = 1; k <= Math.min(MAX_LABEL_WORDS, words.length - 1); k++) {
      const prefix = words.slice(0, k).join(' ');
      // A label inside a cell ends with ":" or "#", or is followed by a number ("Invoice 123").
      const delimited = /[:#]$/.test(prefix) || /\d/.test(words[k]!);
      if (delimited && (labelScore(prefix, ctx.query) > 0.3 || k <= 3)) {
        out.push(candidate(unit, k, words.length - 1, words));
      }
    }
  }
  return out;
}

function candidate(unit: Passage, from: number, to: number, words: string[]): Candidate<string> {
  return {
    at: { page: unit.page, unit, from, to },
    value: words.slice(from, to + 1).join(' '),
    text: words.slice(from, to + 1).join(' '),
  };
}

/** Narrows a candidate to a sub-range of its words. */
function narrow(c: Candidate<string>, from: number, to: number, words: string[]): Candidate<string> {
  const text = words.slice(from - c.at.from, to - c.at.from + 1).join(' ');
  return { at: { ...c.at, from, to }, value: text, text };
}

const ID_TOKEN = /^[#:]?([A-Z0-9][A-Z0-9\-/.]*\d[A-Z0-9\-/.]*|\d[A-Z0-9\-/.]*)[.,;:]?$/i;
const LOOKS_LIKE_DATE = /^\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}$/;
const LOOKS_LIKE_MONEY = /^\$|^\d{1,3}(,\d{3})+(\.\d+)?$|^\d+\.\d{2}$/;
const LOOKS_LIKE_PHONE = /^\(?\d{3}\)?[-.]?\d{3}[-.]\d{4}$/;

function identifierOptions(ctx: Context): Option[] {
  const options: Option[] = [];
  for (const c of valueCandidates(ctx)) {
    const words = c.value.split(' ');
    // The first identifier-looking token right after the label.
    for (let k = 0; k < Math.min(words.length, 3); k++) {
      const m = words[k]!.match(ID_TOKEN);
      if (!m) continue;
      const id = m[1]!.replace(/[.,;:]$/, '');
      if (id.length < 3 || LOOKS_LIKE_DATE.test(id) || LOOKS_LIKE_MONEY.test(id) || LOOKS_LIKE_PHONE.test(id))
        break;
      const n = narrow(c, c.at.from + k, c.at.from + k, words);
      const e = evidence(ctx, n);
      if (e.label < 0.25) break;
      const score = evidenceScore(e) + positionPrior(ctx, c.at.page) + (k === 0 ? 0.03 : 0);
      options.push({ value: id, score, citations: cite(ctx, n), text: id });
      break;
    }
  }
  return mergeOptions(options, (v) => String(v).toUpperCase());
}

/** Words forms print as field labels; a value made of them is another field's label. */
const FORM_LABEL_WORDS = new Set(
  (
    'date dates original revision rev code number no name type ref reference total amount page order contract ' +
    'invoice estimate product agency billing bill account period terms term description id status phone fax ' +
    'email address contact buyer seller salesperson office region station property market demo calendar cycle ' +
    'start end time length rate gross net spots week weeks line special handling remarks comments alt deal ' +
    'to from by of and / # print advertiser client brand schedule flight'
  ).split(' '),
);

function looksLikeLabel(text: string): boolean {
  const tokens = text
    .toLowerCase()
    .split(/[^a-z0-9#/]+/)
    .filter(Boolean);
  if (tokens.length === 0) return true;
  return tokens.filter((t) => FORM_LABEL_WORDS.has(t)).length / tokens.length >= 0.6;
}

const ENTITY_STOP =
  /^(?:date|dates|phone|fax|email|address|page|total|amount|invoice|order|contract|none|n\/a)\b/i;

function entityOptions(ctx: Context): Option[] {
  const options: Option[] = [];
  for (const c of valueCandidates(ctx)) {
    let words = c.value.split(' ');
    if (words.length > 14) words = words.slice(0, 14);
    // A trailing account code in parentheses ("Name (112369)") is not part of the name.
    const text = words
      .join(' ')
      .replace(/^[:#\-–\s]+|[\s,;:]+$/g, '')
      .replace(/\s*\(\d+\)$/, '');
    const letters = (text.match(/\p{L}/gu) ?? []).length;
    if (
      letters < 2 ||
      letters < text.length * 0.4 ||
      ENTITY_STOP.test(text) ||
      /[:#]$/.test(text) ||
      looksLikeLabel(text)
    )
      continue;
    const e = evidence(ctx, c);
    if (e.label < 0.25) continue;
    const n = narrow(c, c.at.from, c.at.from + words.length - 1, c.value.split(' '));
    const score =
      evidenceScore(e) + positionPrior(ctx, c.at.page) - (labelScore(text, ctx.query) > 0.3 ? 0.3 : 0);
    options.push({ value: text, score, citations: cite(ctx, n), text });
  }
  return mergeOptions(options, (v) => String(v).toUpperCase());
}

/** The best passage itself, for questions no narrower answer fits. */
function spanOptions(ctx: Context): Option[] {
  const out: Option[] = [];
  for (const s of topPassages(ctx.index, ctx.scores, 3, ['sentence', 'segment', 'line'])) {
    const c: Candidate<string> = {
      at: { page: s.passage.page, unit: s.passage, from: 0, to: s.passage.words.length - 1 },
      value: s.passage.text,
      text: s.passage.text,
    };
    // A passage answers only when it covers the question, not when it shares one word.
    const terms = new Set(ctx.query.terms);
    const covered = terms.size ? new Set(s.passage.stems.filter((t) => terms.has(t))).size / terms.size : 0;
    out.push({
      value: s.passage.text,
      score: (0.3 + 0.3 * covered) * Math.sqrt(s.score / (ctx.best || 1)),
      citations: cite(ctx, c),
      text: s.passage.text,
    });
  }
  return out;
}

/** A short text answer, quoted verbatim, shaped by what the prompt asks for. */
export function textOptions(ctx: Context): Option[] {
  switch (ctx.query.kind) {
    case 'duration':
      return durationOptions(ctx);
    case 'date':
      return dateOptions(ctx).map((o) => ({ ...o, value: o.text ?? o.value }));
    case 'money':
      return numberOptions(ctx).map((o) => ({ ...o, value: o.text ?? o.value }));
    case 'identifier': {
      const ids = identifierOptions(ctx);
      return ids.length ? ids : entityOptions(ctx);
    }
    case 'entity':
    case 'place': {
      const entities = entityOptions(ctx);
      return entities.length ? entities : spanOptions(ctx);
    }
    default: {
      const values = entityOptions(ctx);
      return values.length && values[0]!.score > 0.5 ? values : spanOptions(ctx);
    }
  }
}
