/**
 * Normalisation and similarity for scoring extraction answers against corpus labels
 * (corpus README "Suggested scoring", fields.json `match`).
 */

/** Whitespace runs become one space, ends trimmed (how citation quotes are compared). */
export function collapseWs(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/**
 * Text for comparison: NFKC, upper-case, in-word punctuation (`.`, `,`, apostrophes)
 * deleted so `L.P.` = `LP` and `Talk.com` = `Talkcom`, every other character that is
 * not a letter or digit (`/ - & ( ) ¢ …`) turned into a space, spaces collapsed.
 */
export function normText(s: string): string {
  return s
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[.,'’‘`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Contract numbers: case-insensitive, whitespace removed, stray `#`/`:`/`.` at the ends dropped. */
export function normCompact(s: string): string {
  return s
    .normalize('NFKC')
    .toUpperCase()
    .replace(/\s+/g, '')
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
}

const UNITS: Record<string, number> = {
  zero: 0,
  one: 1,
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
};
const TENS: Record<string, number> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const NUMBER_WORD = `(?:${[...Object.keys(UNITS), ...Object.keys(TENS), 'hundred'].join('|')})`;
const NUMBER_WORDS = `${NUMBER_WORD}(?:\\s+(?:and\\s+)?${NUMBER_WORD})*`;
const NUMBER = `(?:\\d+(?:\\.\\d+)?|${NUMBER_WORDS})`;
const DURATION = new RegExp(
  `\\b(${NUMBER}|an?)\\s*(?:\\(\\s*(${NUMBER})\\s*\\)\\s*)?(?:(?:calendar|full|consecutive|additional)\\s+)?(year|month|week|day)s?\\b`,
);

/** "twenty four" -> 24, "one hundred and twenty" -> 120, "18" -> 18; null when not a number. */
export function parseNumberWords(s: string): number | null {
  const t = s.trim().toLowerCase();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t);
  if (t === 'a' || t === 'an') return 1;
  let current = 0;
  let seen = false;
  for (const w of t.split(/\s+/)) {
    if (w === 'and') continue;
    if (w in UNITS) current += UNITS[w]!;
    else if (w in TENS) current += TENS[w]!;
    else if (w === 'hundred') current = (current || 1) * 100;
    else return null;
    seen = true;
  }
  return seen ? current : null;
}

/**
 * A stated duration as `"<number> <unit>"`: number words become digits ("two (2) years",
 * "two years", "2 (two) years" -> "2 years"), the unit is kept (no year/month conversion:
 * "24 months" stays "24 months") and pluralised by the number. The first duration in the
 * text wins, so a quoted clause ("for a period of three (3) years from ...") also
 * normalises. Text without a duration falls back to normText.
 */
export function normDuration(s: string): string {
  const text = s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[-‐‑–]/g, ' ')
    .replace(/,/g, '');
  const m = DURATION.exec(text);
  if (!m) return normText(s);
  const inParens = m[2] !== undefined ? parseNumberWords(m[2]) : null;
  const n = inParens ?? parseNumberWords(m[1]!);
  if (n === null) return normText(s);
  return `${n} ${m[3]}${n === 1 ? '' : 's'}`;
}

/** Length of the longest common subsequence of two strings (characters). */
function lcs(a: string, b: string): number {
  if (a.length === 0 || b.length === 0) return 0;
  let prev = new Uint16Array(b.length + 1);
  let cur = new Uint16Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      cur[j] = ca === b.charCodeAt(j - 1) ? prev[j - 1]! + 1 : Math.max(prev[j]!, cur[j - 1]!);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length]!;
}

/**
 * Character similarity 2·LCS/(|a|+|b|): the Indel-distance ratio (rapidfuzz `fuzz.ratio`,
 * close to Python's difflib ratio that the corpus matcher reported, e.g. 0.973 for
 * "ISS/CarolinaBlue-A" against "ISS/Carolina Blue-A"). Inputs longer than 1,000
 * characters are cut there (an answer that long is wrong anyway).
 */
export function charRatio(a: string, b: string): number {
  const x = a.slice(0, 1000);
  const y = b.slice(0, 1000);
  if (x.length + y.length === 0) return 1;
  return (2 * lcs(x, y)) / (x.length + y.length);
}

/** Dice coefficient over the sets of space-separated tokens: 2|A∩B|/(|A|+|B|). */
export function tokenDice(a: string, b: string): number {
  const A = new Set(a.split(' ').filter(Boolean));
  const B = new Set(b.split(' ').filter(Boolean));
  if (A.size + B.size === 0) return 1;
  let both = 0;
  for (const t of A) if (B.has(t)) both++;
  return (2 * both) / (A.size + B.size);
}

/**
 * Fuzzy similarity of two raw strings, 0-1: both go through normText, then the larger
 * of the character ratio (tolerates split/joined words and small spelling differences)
 * and the token Dice coefficient (tolerates a reordered or extra short token).
 */
export function similarity(a: string, b: string): number {
  const x = normText(a);
  const y = normText(b);
  if (x === y) return 1;
  return Math.max(charRatio(x, y), tokenDice(x, y));
}

export const FUZZY_THRESHOLD = 0.85;
