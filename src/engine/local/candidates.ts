import * as chrono from 'chrono-node';
import type { DocIndex, Passage } from './doc-index.ts';
import type { Located } from './retrieval.ts';

export interface Candidate<T> {
  at: Located;
  value: T;
  /** The text the value was read from. */
  text: string;
}

/** Unit text with the character offset at which each of its words starts. */
function unitText(index: DocIndex, unit: Passage): { text: string; starts: number[] } {
  const page = index.doc.pages[unit.page]!;
  const starts: number[] = [];
  let text = '';
  for (const w of unit.words) {
    if (text) text += ' ';
    starts.push(text.length);
    text += page.words[w]!.text;
  }
  return { text, starts };
}

/** Word positions (in unit.words) covered by characters [a, b). */
function wordsOf(starts: number[], a: number, b: number): [number, number] {
  let from = 0;
  while (from + 1 < starts.length && starts[from + 1]! <= a) from++;
  let to = from;
  while (to + 1 < starts.length && starts[to + 1]! < b) to++;
  return [from, to];
}

/** Runs a global regex over every unit; `read` turns a match into a value (or null to skip). */
export function scan<T>(
  index: DocIndex,
  regex: RegExp,
  read: (m: RegExpExecArray, unitText: string) => T | null,
  filter?: (text: string) => boolean,
): Candidate<T>[] {
  const out: Candidate<T>[] = [];
  for (const unit of index.units) {
    const { text, starts } = unitText(index, unit);
    if (filter && !filter(text)) continue;
    regex.lastIndex = 0;
    for (let m = regex.exec(text); m; m = regex.exec(text)) {
      if (m[0].length === 0) {
        regex.lastIndex++;
        continue;
      }
      const value = read(m, text);
      if (value === null) continue;
      const lead = m[0].length - m[0].trimStart().length;
      const [from, to] = wordsOf(starts, m.index + lead, m.index + m[0].trimEnd().length);
      out.push({ at: { page: unit.page, unit, from, to }, value, text: m[0].trim() });
    }
  }
  return out;
}

// ---------- dates ----------

export interface DateValue {
  iso: string;
  /** Part of a written range ("05/26/20 - 06/02/20"), or a single date. */
  role: 'single' | 'start' | 'end';
}

const MONTHS = 'january february march april may june july august september october november december'.split(
  ' ',
);
const MONTH_RE =
  '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const ORDINALS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  thirteenth: 13,
  fourteenth: 14,
  fifteenth: 15,
  sixteenth: 16,
  seventeenth: 17,
  eighteenth: 18,
  nineteenth: 19,
  twentieth: 20,
  'twenty-first': 21,
  'twenty-second': 22,
  'twenty-third': 23,
  'twenty-fourth': 24,
  'twenty-fifth': 25,
  'twenty-sixth': 26,
  'twenty-seventh': 27,
  'twenty-eighth': 28,
  'twenty-ninth': 29,
  thirtieth: 30,
  'thirty-first': 31,
};
/** Legal style: "the 3rd day of March, 2005", "this first day of June 2004". */
const DAY_OF_RE = new RegExp(
  `\\b(\\d{1,2}|${Object.keys(ORDINALS).join('|')})(?:st|nd|rd|th)?\\s+day\\s+of\\s+${MONTH_RE}\\s*,?\\s*(?:in\\s+the\\s+year\\s+)?(\\d{4})\\b`,
  'gi',
);
/** "Aug. 6, 2016": abbreviated months with a period, which chrono's strict parser skips. */
const MONTH_DAY_RE = new RegExp(`\\b${MONTH_RE}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi');
const NUMERIC_RANGE_RE = /\b(\d{1,2}\/\d{1,2}(?:\/\d{2,4})?)\s?[-–]\s?(\d{1,2}\/\d{1,2}\/\d{2,4})\b/g;
/** "Jun05/20": month name, day and two-digit year run together, as some order systems print them. */
const MONTH_DAY_YY_RE = new RegExp(`\\b${MONTH_RE}(\\d{2})\\/(\\d{2})\\b`, 'gi');
const DATE_HINT =
  /\d{1,4}[/.-]\d{1,2}[/.-]\d{2,4}|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d|\d\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/i;

/** Month names of the other languages invoices are commonly written in (de, fr, nl, es, it). */
const FOREIGN_MONTHS = new Map<string, number>();
[
  'januar janvier januari enero gennaio jan',
  'februar février fevrier februari febrero febbraio feb',
  'märz maerz mars maart marzo mär',
  'april avril abril aprile apr',
  'mai mei mayo maggio',
  'juni juin junio giugno',
  'juli juillet julio luglio',
  'august août aout augustus agosto',
  'september septembre septiembre settembre sept',
  'oktober octobre octubre ottobre okt',
  'november novembre noviembre',
  'dezember décembre decembre december diciembre dicembre dez',
].forEach((names, i) => {
  for (const n of names.split(' ')) FOREIGN_MONTHS.set(n, i + 1);
});
const FOREIGN_DAY_MONTH_RE = new RegExp(
  `\\b(\\d{1,2})\\.?\\s+(${[...FOREIGN_MONTHS.keys()].join('|')})\\.?\\s+(\\d{4})\\b`,
  'giu',
);
const DOTTED_RE = /\b(\d{1,2})([.-])(\d{1,2})\2(\d{4}|\d{2})\b(?![.-]\d)/g;

const iso = (y: number, m: number, d: number) =>
  `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

function validDate(y: number, m: number, d: number): boolean {
  if (y < 1900 || y > 2100 || m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** Day-first when any numeric date of the document only makes sense that way (31/12/2020, 22-9-2022). */
function isDayFirst(index: DocIndex): boolean {
  let dayFirst = 0;
  let monthFirst = 0;
  for (const u of index.units) {
    for (const m of u.text.matchAll(/\b(\d{1,2})([/.-])(\d{1,2})\2(\d{2,4})\b/g)) {
      const a = Number(m[1]);
      const b = Number(m[3]);
      if (a > 12 && b <= 12) dayFirst++;
      if (b > 12 && a <= 12) monthFirst++;
    }
  }
  if (dayFirst !== monthFirst) return dayFirst > monthFirst;
  return writesContinental(index);
}

/**
 * With no date that settles it, the way amounts are written does: a decimal comma ("7,08") or
 * prices in euros or pounds belong to the places that write the day first; dollars with a
 * decimal point to the one that does not.
 */
function writesContinental(index: DocIndex): boolean {
  const { comma, point, europe, dollar } = amountMarks(index);
  if (comma !== point) return comma > point;
  return europe > dollar;
}

interface AmountMarks {
  comma: number;
  point: number;
  /** Figures with a point before one or two final digits, rates ("15.0%") aside. */
  pointShort: number;
  /** Figures with points between groups of three ("8.524", "12.500.000"). */
  pointGroups: number;
  europe: number;
  dollar: number;
}

/** How the document writes its amounts: decimal commas, decimal points, currencies (memoised). */
function amountMarks(index: DocIndex): AmountMarks {
  const hit = index.memo.get('amount-marks') as AmountMarks | undefined;
  if (hit) return hit;
  const out = { comma: 0, point: 0, pointShort: 0, pointGroups: 0, europe: 0, dollar: 0 };
  for (const u of index.units) {
    out.comma += (u.text.match(/(?<![\d.,])\d{1,3}(?:[.\u00a0 ]\d{3})*,\d{2}(?![\d,.])/g) ?? []).length;
    out.point += (u.text.match(/(?<![\d.,])\d{1,3}(?:,\d{3})*\.\d{2}(?![\d,.])/g) ?? []).length;
    out.pointShort += (u.text.match(/(?<![\d.,])\d+\.\d{1,2}(?![\d,.]|\s*%)/g) ?? []).length;
    out.pointGroups += (u.text.match(/(?<![\d.,])[1-9]\d{0,2}(?:\.\d{3})+(?![\d,.])/g) ?? []).length;
    out.europe += (u.text.match(/[€£]|\b(?:EUR|GBP|CHF)\b/g) ?? []).length;
    out.dollar += (u.text.match(/\$|\bUSD\b/g) ?? []).length;
  }
  index.memo.set('amount-marks', out);
  return out;
}

/** Every full date written in the document (cached per document). */
export function dateCandidates(index: DocIndex): Candidate<DateValue>[] {
  const hit = index.memo.get('dates') as Candidate<DateValue>[] | undefined;
  if (hit) return hit;
  const dayFirst = isDayFirst(index);
  const parser = dayFirst ? chrono.en.GB : chrono.strict;
  const out: Candidate<DateValue>[] = [];
  out.push(
    ...scan(index, DAY_OF_RE, (m) => {
      const day = /^\d/.test(m[1]!) ? Number(m[1]) : ORDINALS[m[1]!.toLowerCase()]!;
      const month = MONTHS.findIndex((x) => x.startsWith(m[2]!.toLowerCase().slice(0, 3))) + 1;
      const year = Number(m[3]);
      return validDate(year, month, day) ? { iso: iso(year, month, day), role: 'single' as const } : null;
    }),
  );
  out.push(
    ...scan(index, MONTH_DAY_RE, (m) => {
      const month = MONTHS.findIndex((x) => x.startsWith(m[1]!.toLowerCase().slice(0, 3))) + 1;
      const day = Number(m[2]);
      const year = Number(m[3]);
      return validDate(year, month, day) ? { iso: iso(year, month, day), role: 'single' as const } : null;
    }),
  );
  // "02/24/20-03/02/20": a numeric range written as one word, which chrono reads as one date.
  for (const c of scan(index, NUMERIC_RANGE_RE, (m) => m)) {
    const m = c.value;
    for (const [text, role] of [
      [m[1]!, 'start'],
      [m[2]!, 'end'],
    ] as const) {
      const parts = text.split(/[/.-]/).map(Number);
      // "4/28-5/4/2020": the start borrows the end's year.
      const y = parts[2] ?? Number(m[2]!.split('/')[2]);
      const [a, b] = parts as [number, number];
      const year = y < 100 ? 2000 + y : y;
      const [month, day] = dayFirst ? [b, a] : [a, b];
      if (validDate(year, month, day))
        out.push({ at: c.at, value: { iso: iso(year, month, day), role }, text: c.text });
    }
  }
  out.push(
    ...scan(index, MONTH_DAY_YY_RE, (m) => {
      const month = MONTHS.findIndex((x) => x.startsWith(m[1]!.toLowerCase().slice(0, 3))) + 1;
      const day = Number(m[2]);
      const year = 2000 + Number(m[3]);
      return validDate(year, month, day) ? { iso: iso(year, month, day), role: 'single' as const } : null;
    }),
  );
  // "7. Mai 2014", "29 maart 2014", "02 Juillet 2015": day, month name in another language, year.
  out.push(
    ...scan(index, FOREIGN_DAY_MONTH_RE, (m) => {
      const month = FOREIGN_MONTHS.get(m[2]!.toLowerCase().replace(/\.$/, ''));
      const day = Number(m[1]);
      const year = Number(m[3]);
      return month && validDate(year, month, day)
        ? { iso: iso(year, month, day), role: 'single' as const }
        : null;
    }),
  );
  // "04.07.2023", "20-10-2015": dots and dashes are written day first, unless the day cannot be.
  out.push(
    ...scan(index, DOTTED_RE, (m) => {
      const a = Number(m[1]);
      const b = Number(m[3]);
      const y = Number(m[4]);
      const year = m[4]!.length === 2 ? 2000 + y : y;
      const [day, month] =
        a > 12 || (!(b > 12) && (dayFirst || m[2] === '.' || m[2] === '-')) ? [a, b] : [b, a];
      return validDate(year, month, day) ? { iso: iso(year, month, day), role: 'single' as const } : null;
    }),
  );
  for (const unit of index.units) {
    if (!DATE_HINT.test(unit.text)) continue;
    let results: chrono.ParsedResult[];
    try {
      results = parser.parse(unit.text, new Date(Date.UTC(2000, 0, 1)), { forwardDate: false });
    } catch {
      continue;
    }
    for (const r of results) {
      if (!/\d/.test(r.text)) continue;
      const parts: [chrono.ParsedComponents, DateValue['role'], number, number][] = [];
      if (r.end) {
        const at = rangeSplit(r.text);
        parts.push([r.start, 'start', r.index, r.index + at]);
        parts.push([r.end, 'end', r.index + at, r.index + r.text.length]);
      } else parts.push([r.start, 'single', r.index, r.index + r.text.length]);
      for (const [c, role, a, b] of parts) {
        // "4/28-5/4/2020": the start of a range takes its year from the end.
        const yearKnown = c.isCertain('year') || (role === 'start' && r.end?.isCertain('year'));
        if (!c.isCertain('day') || !c.isCertain('month') || !yearKnown) continue;
        const y = c.get('year')!;
        const mo = c.get('month')!;
        const d = c.get('day')!;
        if (!validDate(y, mo, d)) continue;
        const located = locateInUnit(index, unit, a, b);
        // Words a rule above already read as a date keep that reading: chrono reads "8-9-2022"
        // month first, where a dashed date is written day first.
        const read = out.some(
          (o) =>
            o.at.page === located.page &&
            o.at.unit.id === located.unit.id &&
            o.at.from === located.from &&
            o.at.to === located.to,
        );
        if (read) continue;
        out.push({ at: located, value: { iso: iso(y, mo, d), role }, text: unit.text.slice(a, b).trim() });
      }
    }
  }
  for (const c of out) if (c.value.role === 'single') c.value = { ...c.value, role: boundCue(index, c.at) };
  index.memo.set('dates', out);
  return out;
}

/** Words that make the date after them the end of a period ("year ended", "valid through", "to"). */
const END_CUE = /^(?:ended|ending|through|thru|until|till|to|bis|tot|au)$/i;
/** Words that make the date after them the start of a period ("from", "beginning", "commencing"). */
const START_CUE = /^(?:from|beginning|starting|commencing|since|von|vanaf|du)$/i;

/**
 * A date written as one end of a period by the words before it: "for the year ended 30 June",
 * "from 1 May", "valid until". Not the day a document was written or signed.
 */
function boundCue(index: DocIndex, at: Located): DateValue['role'] {
  const words = at.unit.words;
  const page = index.doc.pages[at.page]!;
  for (let k = at.from - 1; k >= Math.max(0, at.from - 2); k--) {
    const w = page.words[words[k]!]?.text.replace(/[,:;(]+$/, '') ?? '';
    if (END_CUE.test(w)) return 'end';
    if (START_CUE.test(w)) return 'start';
    // One word between is allowed ("ended on", "to the"), not a clause.
    if (!/^(?:on|the|and|of)$/i.test(w)) break;
  }
  return 'single';
}

/** Where a written range splits: the separator nearest its middle. */
function rangeSplit(text: string): number {
  let best = Math.floor(text.length / 2);
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const m of text.matchAll(/\s*(?:[-–—]|\bto\b|\bthrough\b|\bthru\b|\buntil\b)\s*/gi)) {
    const d = Math.abs(m.index + m[0].length / 2 - text.length / 2);
    if (m.index > 0 && d < bestDistance) {
      bestDistance = d;
      best = m.index;
    }
  }
  return best;
}

export function locateInUnit(index: DocIndex, unit: Passage, a: number, b: number): Located {
  const { text, starts } = unitText(index, unit);
  const sub = text.slice(a, b);
  const lead = sub.length - sub.trimStart().length;
  const [from, to] = wordsOf(starts, a + lead, a + sub.trimEnd().length);
  return { page: unit.page, unit, from, to };
}

// ---------- numbers ----------

export interface NumberValue {
  value: number;
  currency: boolean;
  percent: boolean;
  decimals: boolean;
  /** Looks like a year, a phone or zip code, part of a date or an identifier. */
  suspicious: boolean;
  /** The part of the document the figure numbers ("section" for "Section 22"), if it numbers one. */
  numbers?: string;
}

/** "Section 22", "Article 5", "Page 3 of 4": the figure numbers a part of the document. */
const PART_BEFORE =
  /\b(section|article|clause|schedule|exhibit|annex|appendix|part|chapter|paragraph|page)\s*$/i;

const SCALE: Record<string, number> = {
  thousand: 1e3,
  k: 1e3,
  million: 1e6,
  mn: 1e6,
  m: 1e6,
  billion: 1e9,
  bn: 1e9,
  b: 1e9,
};
const NUMBER_RE =
  /(\(\s*)?(-|−)?\s*((?:US)?\$|USD|€|EUR|£|GBP|CHF|Rs\.?|₹|INR)?\s*(\d{1,3}(?:[.\u202f ]\d{3})+,\d{1,2}(?!\d)|\d+,\d{2}(?![\d,])|\d{1,3}(?:[,\u202f ]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)(?:\s*(%|percent\b|per cent\b))?(?:\s*(thousand|million|billion|mn|bn)\b)?(\s*\))?(?:\s*(€|EUR\b|USD\b|GBP\b|CHF\b|PLN\b|zł))?/gi;
/** "4.904,94" and "56,02": a comma before exactly two final digits is a decimal comma. */
const DECIMAL_COMMA = /^\d{1,3}(?:[.\u202f ]\d{3})+,\d{1,2}$|^\d+,\d{2}$/;

/** "1.101" or "12.500.000": points between groups of three, no decimals (never "0.125"). */
const POINT_THOUSANDS = /^[1-9]\d{0,2}(?:\.\d{3})+$/;

export function numberCandidates(index: DocIndex): Candidate<NumberValue>[] {
  const hit = index.memo.get('numbers') as Candidate<NumberValue>[] | undefined;
  if (hit) return hit;
  // Where amounts take a decimal comma ("€202,67"), a point groups thousands: "1.101 GB" is 1101.
  const marks = amountMarks(index);
  // So it does where figures are grouped by points and none has a point before cents: a table of
  // whole figures "8.524", "12.982" written the continental way, beside an English "15.0%".
  const continental = marks.comma > marks.point || (marks.pointShort === 0 && marks.pointGroups >= 3);
  const out = scan(index, NUMBER_RE, (m, text) => {
    const digits = DECIMAL_COMMA.test(m[4]!)
      ? m[4]!.replace(/[.\u202f ]/g, '').replace(',', '.')
      : continental && POINT_THOUSANDS.test(m[4]!)
        ? m[4]!.replace(/\./g, '')
        : m[4]!.replace(/[,\u202f ]/g, '');
    let value = Number(digits);
    if (!Number.isFinite(value)) return null;
    const scale = m[6] ? SCALE[m[6].toLowerCase()]! : 1;
    value = Number((value * scale).toPrecision(15));
    // The character right before the figure's first mark (the match may open with spaces).
    const start = m.index + m[0].length - m[0].trimStart().length;
    const before = text.slice(Math.max(0, start - 1), start);
    // Digits glued to letters are part of a code ("DE355369209", "INV2024"), not a quantity.
    if (!m[1] && !m[2] && !m[3] && /\p{L}/u.test(before)) return null;
    // So are currency letters glued to letters before them: the "RS" of "CERS 0806" is no rupee.
    if (!m[1] && !m[2] && m[3] && /^\p{L}/u.test(m[3]) && /\p{L}/u.test(before)) return null;
    // Accounting negatives: "(4,500.00)" or "($120)", not an enumeration like "(30)", nor
    // figures restating the words before them: "ninety thousand dollars ($90,000)".
    const restates = Boolean(m[1]) && SPELLED_AMOUNT.test(text.slice(Math.max(0, m.index - 40), m.index));
    const negative =
      Boolean(m[2]) || (Boolean(m[1]) && Boolean(m[7]) && !restates && (Boolean(m[3]) || /[.,]/.test(m[4]!)));
    if (negative) value = -value;
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 2);
    const inDate = /[/.-]$/.test(before) || /^[/-]\d/.test(after) || /^\.\d/.test(after);
    const isYear = !m[3] && !m[8] && !m[5] && /^(19|20)\d\d$/.test(digits);
    const longId = !m[3] && /^\d{5,}$/.test(digits) && !m[4]!.includes(',');
    // "(5)" numbers a clause or list entry: not an amount.
    const enumeration =
      Boolean(m[1]) && Boolean(m[7]) && !negative && !m[5] && !m[6] && /^\d{1,2}$/.test(digits);
    const part =
      !m[1] && !m[3] && !m[5] && !m[8] && /^\d{1,3}$/.test(digits)
        ? PART_BEFORE.exec(text.slice(Math.max(0, start - 16), start))?.[1]?.toLowerCase()
        : undefined;
    return {
      ...(part ? { numbers: part } : {}),
      value,
      currency: Boolean(m[3] || m[8]),
      percent: Boolean(m[5]),
      decimals: digits.includes('.'),
      suspicious: inDate || isYear || longId || enumeration || /^[A-Za-z#]$/.test(before),
    };
  });
  // The day of "Statement end 7 November 2020" is part of the date, not a figure the statement gives.
  const dates = dateCandidates(index);
  const kept = out.filter(
    (c) => !dates.some((d) => d.at.unit === c.at.unit && d.at.from <= c.at.from && c.at.to <= d.at.to),
  );
  index.memo.set('numbers', kept);
  return kept;
}

// ---------- durations ----------

export interface DurationValue {
  amount: number;
  unit: 'days' | 'weeks' | 'months' | 'years';
}

const SMALL: Record<string, number> = {
  zero: 0,
  one: 1,
  a: 1,
  an: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  hundred: 100,
  half: 0.5,
};

/** The words a whole number is spelled with, "one" to "hundred" (no articles, "zero" or "half"). */
export const NUMBER_WORD_ALTERNATIVES = Object.keys(SMALL)
  .filter((k) => !['a', 'an', 'half', 'zero'].includes(k))
  .join('|');
/** Words an amount in words ends with, right before its figures in parentheses. */
const SPELLED_AMOUNT = new RegExp(
  `\\b(?:amount of|dollars?|euros?|pounds?(?: sterling)?|francs?|rupees?|yen|cents?|thousand|million|billion|${NUMBER_WORD_ALTERNATIVES})\\s*$`,
  'i',
);

export function wordsToNumber(text: string): number | null {
  const t = text.toLowerCase().trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t);
  let total = 0;
  let any = false;
  for (const part of t.split(/[\s-]+/)) {
    if (part === 'and' || part === '') continue;
    const v = SMALL[part];
    if (v === undefined) return null;
    total = v === 100 ? (total || 1) * 100 : total + v;
    any = true;
  }
  return any ? total : null;
}

const ONE_NUM_WORD = `(?:${Object.keys(SMALL)
  .filter((k) => k !== 'a' && k !== 'an')
  .join('|')})`;
const TWO_NUM_WORDS = `${ONE_NUM_WORD}(?:[\\s-]${ONE_NUM_WORD})?`;
/**
 * A number in words up to the hundreds: "ninety", "forty-five", "one hundred and eighty". An
 * "and" only after "hundred": "two and three years" is two lengths, not five.
 */
const NUM_WORD = `(?:${ONE_NUM_WORD}\\s+hundred(?:\\s+(?:and\\s+)?${TWO_NUM_WORDS})?|${TWO_NUM_WORDS})`;
const DURATION_RE = new RegExp(
  `\\b(?:(${NUM_WORD})\\s*(?:\\(\\s*(\\d+(?:\\.\\d+)?)\\s*\\)\\s*)?|(\\d+(?:\\.\\d+)?)\\s*(?:-\\s*)?|(an?)\\s+)(calendar\\s+|full\\s+|consecutive\\s+)?(years?|months?|days?|weeks?)\\b`,
  'gi',
);

export function durationCandidates(index: DocIndex): Candidate<DurationValue>[] {
  const hit = index.memo.get('durations') as Candidate<DurationValue>[] | undefined;
  if (hit) return hit;
  const out = scan(index, DURATION_RE, (m) => {
    const amount = m[2] ? Number(m[2]) : m[3] ? Number(m[3]) : m[1] ? wordsToNumber(m[1]) : 1;
    if (amount === null || amount <= 0 || amount > 1000) return null;
    let unit = m[6]!.toLowerCase();
    if (!unit.endsWith('s')) unit += 's';
    return { amount, unit: unit as DurationValue['unit'] };
  });
  index.memo.set('durations', out);
  return out;
}

export function durationIn(d: DurationValue, unit: DurationValue['unit']): number {
  if (d.unit === unit) return d.amount;
  const exact = conventionalIn(d, unit);
  if (exact !== null) return Math.round(exact * 100) / 100;
  const days = DAYS_IN[d.unit] * d.amount;
  return Math.round((days / DAYS_IN[unit]) * 100) / 100;
}

const DAYS_IN: Record<DurationValue['unit'], number> = {
  days: 1,
  weeks: 7,
  months: 365.25 / 12,
  years: 365.25,
};

/**
 * Agreements count a month as 30 days and a year as 365 days or 52 weeks: "ninety (90) days"
 * is three months, not 2.96; "forty-five days" one and a half. Null where no convention holds.
 */
function conventionalIn(d: DurationValue, unit: DurationValue['unit']): number | null {
  const n = d.amount;
  const whole = (per: number) => (n % per === 0 ? n / per : null);
  const key = `${d.unit}>${unit}`;
  switch (key) {
    case 'days>months':
      return n % 365 === 0 ? (n / 365) * 12 : n / 30;
    case 'days>years':
      return whole(365);
    case 'days>weeks':
      return whole(7);
    case 'weeks>days':
      return n * 7;
    case 'weeks>years':
      return whole(52);
    case 'weeks>months':
      return n % 52 === 0 ? (n / 52) * 12 : null;
    case 'months>years':
      return n / 12;
    case 'months>days':
      return n * 30;
    case 'years>months':
      return n * 12;
    case 'years>days':
      return n * 365;
    case 'years>weeks':
      return n * 52;
    default:
      return null;
  }
}
