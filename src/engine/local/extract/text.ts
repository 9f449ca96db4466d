import { contentStems, stem } from '../../text/tokenize.ts';
import type { Candidate } from '../candidates.ts';
import { valueCandidates } from '../pairs.ts';
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
  for (const c of valueCandidates(ctx.index, ctx.query)) {
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
    'start end time length rate net spots week weeks line special handling remarks comments alt deal ' +
    'to from by of and / # print client brand schedule'
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
  for (const c of valueCandidates(ctx.index, ctx.query)) {
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

const CONNECTOR = /^(?:of|the|and|&|for|de|du|von|van|da)$/;

/**
 * Names in the best sentences ("the laws of the State of Connecticut", "between Granite
 * Harbor Foods Ltd. (the "Supplier")"): runs of capitalised words, without the prompt's own
 * words, ranked by the sentence's relevance and their distance to the prompt's words.
 */
function nameOptions(ctx: Context): Option[] {
  const out: Option[] = [];
  const pages = ctx.index.doc.pages;
  const defined = definedTerms(ctx);
  // The sentence that defines a role the prompt names (... Ltd. (the "Supplier")) names its holder.
  const defining = new Map<number, number>();
  for (const u of ctx.index.units) {
    for (const m of u.text.matchAll(/[\u201c"]([A-Z][\p{L}]+)[\u201d"]/gu)) {
      if (ctx.query.weights.get(stem(m[1]!.toLowerCase())) === 1 && !defining.has(u.id))
        defining.set(u.id, m.index);
    }
  }
  const passages = topPassages(ctx.index, ctx.scores, 4, ['sentence', 'line']).map((s) => s.passage);
  for (const id of defining.keys())
    if (!passages.some((p) => p.id === id)) passages.push(ctx.index.passages[id]!);
  for (const unit of passages) {
    const words = unit.words.map((w) => pages[unit.page]!.words[w]!.text);
    const definedAt = defining.get(unit.id);
    const definitionWord = definedAt === undefined ? -1 : unit.text.slice(0, definedAt).split(' ').length - 1;
    let k = 1; // a sentence's first word is capitalised anyway
    while (k < words.length) {
      if (
        !/^[A-Z][\p{L}\p{N}.&'’-]*[,.;:)]?$/u.test(words[k]!) ||
        ctx.query.weights.get(contentStemsOf(words[k]!)) === 1
      ) {
        k++;
        continue;
      }
      let end = k;
      while (
        end + 1 < words.length &&
        !/[,;:)]$/.test(words[end]!) &&
        (/^[A-Z0-9][\p{L}\p{N}.&'’-]*[,.;:)]?$/u.test(words[end + 1]!) ||
          (CONNECTOR.test(words[end + 1]!) && /^[A-Z]/.test(words[end + 2] ?? '')))
      ) {
        end++;
      }
      if (/^(?:Inc|LLC|Ltd|Corp)\.?,?$/.test(words[end + 1] ?? '')) end++;
      // "a Mississippi corporation": a name used as an adjective describes, it does not name.
      if (/^an?$/i.test(words[k - 1] ?? '') && /^[a-z]/.test(words[end + 1] ?? '')) {
        k = end + 1;
        continue;
      }
      const c: Candidate<string> = {
        at: { page: unit.page, unit, from: k, to: end },
        value: words.slice(k, end + 1).join(' '),
        text: words.slice(k, end + 1).join(' '),
      };
      const e = evidence(ctx, c);
      const text = c.value
        .replace(/[,;:()]+$/g, '')
        .replace(/\.$/, (d) => (/\b(?:Inc|Ltd|Corp|Co|L\.P|N\.A)\.$/.test(c.value) ? d : ''));
      if (!looksLikeLabel(text) && !defined.has(text.toUpperCase()) && !COMMON_CAPITALISED.test(text)) {
        const definesRole = definitionWord > end && definitionWord - end <= 10 ? 0.25 : 0;
        out.push({
          value: text,
          score: 0.2 + 0.35 * e.relevance + 0.3 * e.proximity + definesRole,
          citations: cite(ctx, c),
          text,
        });
      }
      k = end + 1;
    }
  }
  return mergeOptions(out, (v) => String(v).toUpperCase());
}

/** Words a document capitalises as its own vocabulary, not names. */
const COMMON_CAPITALISED =
  /^(?:Agreement|Section|Article|Exhibit|Schedule|Annex|Appendix|Party|Parties|This|The|Each|Any|All|In|If|Confidential Information)$/i;

/** Terms the document defines ("the \u201cSupplier\u201d"): roles, not the names asked for. */
function definedTerms(ctx: Context): Set<string> {
  const hit = ctx.index.memo.get('defined') as Set<string> | undefined;
  if (hit) return hit;
  const out = new Set<string>();
  for (const u of ctx.index.units) {
    for (const m of u.text.matchAll(/[\u201c"]([A-Z][\p{L}\p{N} ]{1,40})[\u201d"]/gu))
      out.add(m[1]!.trim().toUpperCase());
  }
  ctx.index.memo.set('defined', out);
  return out;
}

function contentStemsOf(word: string): string {
  return contentStems(word)[0] ?? '';
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
      score: (covered >= 0.5 ? 0.3 + 0.3 * covered : 0.2) * Math.sqrt(s.score / (ctx.best || 1)),
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
      if (entities.length && entities[0]!.score >= 0.4) return entities;
      const names = nameOptions(ctx);
      const best = [...entities, ...names].sort((a, b) => b.score - a.score);
      return best.length ? best : spanOptions(ctx);
    }
    default: {
      const values = entityOptions(ctx);
      return values.length && values[0]!.score > 0.5 ? values : spanOptions(ctx);
    }
  }
}
