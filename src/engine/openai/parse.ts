import type { EngineColumn, ScalarValue } from '../types.ts';

/** A model answer that cannot be used as it is; the message says why (shown to the model and user). */
export class InvalidAnswer extends Error {
  override name = 'InvalidAnswer';
}

export interface RawQuote {
  document: string | null;
  page: number | null;
  quote: string;
}

export interface RawAnswer {
  quotes: RawQuote[];
  value: unknown;
  confidence: number | null;
}

/**
 * Reads the JSON object out of a model's message. Servers without schema enforcement may
 * wrap it in a code fence or prefix reasoning (`<think>`), which is tolerated.
 */
export function parseAnswer(content: string): RawAnswer {
  const text = content.replace(/<think>[\s\S]*?<\/think>/gi, '').trim();
  if (!text) throw new InvalidAnswer('the answer was empty');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text)?.[1];
    const start = text.indexOf('{');
    const end = text.lastIndexOf('}');
    const inner = fenced ?? (start >= 0 && end > start ? text.slice(start, end + 1) : null);
    try {
      if (inner === null) throw new Error('no object');
      json = JSON.parse(inner);
    } catch {
      throw new InvalidAnswer('the answer was not valid JSON');
    }
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) {
    throw new InvalidAnswer('the answer was not a JSON object');
  }
  const o = json as Record<string, unknown>;
  if (!('value' in o)) throw new InvalidAnswer('the answer has no "value"');
  const quotes: RawQuote[] = [];
  if (Array.isArray(o.quotes)) {
    for (const q of o.quotes) {
      if (typeof q === 'string') quotes.push({ document: null, page: null, quote: q });
      else if (q && typeof q === 'object' && typeof (q as { quote?: unknown }).quote === 'string') {
        const r = q as { quote: string; page?: unknown; document?: unknown };
        const page = typeof r.page === 'number' ? r.page : typeof r.page === 'string' ? Number(r.page) : NaN;
        quotes.push({
          document: typeof r.document === 'string' ? r.document : null,
          page: Number.isInteger(page) ? page : null,
          quote: r.quote,
        });
      }
    }
  }
  const c = typeof o.confidence === 'string' ? Number(o.confidence) : o.confidence;
  const confidence = typeof c === 'number' && Number.isFinite(c) ? Math.min(1, Math.max(0, c)) : null;
  return { quotes, value: o.value, confidence };
}

/**
 * Checks the value against the column's output type and returns it in its stored form;
 * throws InvalidAnswer when it does not fit. `null` means the documents do not state it
 * (for lists: no items).
 */
export function coerceValue(column: EngineColumn, value: unknown): ScalarValue {
  switch (column.outputType) {
    case 'text_quote': {
      if (value === null || value === undefined) return null;
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      if (typeof value !== 'string') throw new InvalidAnswer('value must be a string or null');
      const t = value.trim();
      return t === '' ? null : t;
    }
    case 'number':
      return coerceNumber(value);
    case 'date':
      return coerceDate(value);
    case 'boolean': {
      if (value === null || value === undefined || typeof value === 'boolean') return value ?? null;
      if (typeof value === 'string') {
        if (/^\s*(true|yes)\s*$/i.test(value)) return true;
        if (/^\s*(false|no)\s*$/i.test(value)) return false;
        if (/^\s*(null|)\s*$/i.test(value)) return null;
      }
      throw new InvalidAnswer('value must be true, false or null');
    }
    case 'categorical': {
      if (value === null || value === undefined) return null;
      if (typeof value !== 'string') throw new InvalidAnswer('value must be one of the categories or null');
      const categories = column.config?.categories ?? [];
      const want = value
        .trim()
        .replace(/^["'](.*)["']$/, '$1')
        .replace(/\.$/, '')
        .trim()
        .toLowerCase();
      if (want === '' || want === 'null') return null;
      const hit = categories.find((c) => c.trim().toLowerCase() === want);
      if (hit === undefined) {
        throw new InvalidAnswer(`"${short(value)}" is not one of the categories (${categories.join(', ')})`);
      }
      return hit;
    }
    case 'list_scalar': {
      if (value === null || value === undefined) return null;
      const items = Array.isArray(value) ? value : [value];
      const seen = new Set<string>();
      const out: string[] = [];
      for (const item of items) {
        if (item === null) continue;
        if (typeof item === 'object') throw new InvalidAnswer('list items must be strings');
        const t = String(item).trim();
        if (t && !seen.has(t.toUpperCase())) {
          seen.add(t.toUpperCase());
          out.push(t);
        }
      }
      return out.length ? out : null;
    }
    default:
      throw new InvalidAnswer(`no scalar value for ${column.outputType}`);
  }
}

function coerceNumber(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new InvalidAnswer('value must be a finite number');
    return value;
  }
  if (typeof value === 'string') {
    if (/^\s*(null|)\s*$/i.test(value)) return null;
    const n = parseNumberText(value);
    if (n !== null) return n;
  }
  throw new InvalidAnswer(`"${short(String(value))}" is not a number`);
}

/** "1,234.50", "1.234,50", "1 234,5", "$ 12", "(300)", "12.5%": plain numbers, any locale. */
export function parseNumberText(s: string): number | null {
  let t = s.trim();
  const negative = /^\(.*\)$/.test(t) || /^[-−]/.test(t.replace(/^[^\d\-−(]+/, ''));
  t = t.replace(/[^\d.,]/g, '');
  if (!/\d/.test(t)) return null;
  const lastDot = t.lastIndexOf('.');
  const lastComma = t.lastIndexOf(',');
  let decimal: '.' | ',' | null = null;
  if (lastDot >= 0 && lastComma >= 0) decimal = lastDot > lastComma ? '.' : ',';
  else if (lastComma >= 0) {
    // One comma followed by exactly three digits is a thousands separator ("1,234").
    decimal = (t.match(/,/g) ?? []).length === 1 && !/,\d{3}$/.test(t) ? ',' : null;
  } else if (lastDot >= 0) {
    decimal = (t.match(/\./g) ?? []).length === 1 ? '.' : null;
  }
  const [int, frac] =
    decimal === null
      ? [t.replace(/[.,]/g, ''), '']
      : [t.slice(0, t.lastIndexOf(decimal)).replace(/[.,]/g, ''), t.slice(t.lastIndexOf(decimal) + 1)];
  const n = Number(`${int || '0'}.${frac || '0'}`);
  if (!Number.isFinite(n)) return null;
  return negative ? -n : n;
}

function coerceDate(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw new InvalidAnswer('value must be a YYYY-MM-DD date or null');
  if (/^\s*(null|)\s*$/i.test(value)) return null;
  const m = /^\s*(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?\s*$/.exec(value);
  if (m) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const date = new Date(Date.UTC(y, mo - 1, d));
    if (date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d) {
      return `${m[1]}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
    }
  }
  throw new InvalidAnswer(`"${short(value)}" is not a valid YYYY-MM-DD date`);
}

const short = (s: string) => (s.length > 60 ? `${s.slice(0, 60)}...` : s);
