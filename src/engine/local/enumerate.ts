/**
 * Items named in one sentence: "by and between A ("X") and B, a Delaware corporation" → A, B.
 * Grammar of English enumerations only; nothing about any document set.
 */
const DESCRIPTOR =
  /,?\s+(?:a|an)\s+(?:[\w-]+\s+){0,4}(?:corporation|company|partnership|limited|llc|bank|association|entity|individual|resident|trust|organization|organisation)\b.*$|,\s*(?:with|having|whose|located|organized|organised|incorporated|residing|doing business|its|and its)\b.*$|,?\s+(?:with|having)\s+(?:its|a|offices)\b.*$/i;

/** The legal forms a comma stands before inside a company's name ("Acme, Inc."). */
const LEGAL_FORM = 'Inc|LLC|L\\.?L\\.?C|Ltd|L\\.?P|Corp|Co|N\\.A|S\\.A|plc|GmbH|Limited';

export const isFullName = (i: string) =>
  i.split(/\s+/).length >= 2 || /\b(?:inc|llc|ltd|corp|corporation|company|lp|plc|gmbh|bank)\b/i.test(i);

/**
 * "by and between A (\"X\") and B, a Delaware corporation" → ["A", "B"]. A text may say
 * "between" more than once (a title, a recital): the reading with the most full names wins.
 */
export function enumerateItems(text: string): string[] {
  let best: string[] = [];
  for (const m of text.matchAll(/\b(?:between|among|amongst)\b/gi)) {
    const items = enumerateFrom(m[0], text.slice(m.index + m[0].length));
    if (items.filter(isFullName).length > best.filter(isFullName).length) best = items;
  }
  return best;
}

function enumerateFrom(word: string, after: string): string[] {
  const m = [word, after.replace(/^\s*:?\s*/, '')];
  let rest = m[1]!;
  // Definitions and addresses in parentheses go first; they hold commas and "and"s.
  for (let i = 0; i < 3; i++) rest = rest.replace(/\([^()]*\)/g, ' ');
  rest = rest.replace(/[“”"][^“”"]*[“”"]/g, ' ');
  const sentenceEnd = rest.search(/(?<!\b[A-Z])\.\s+[A-Z]/);
  const clause = rest.search(
    /\b(?:WHEREAS|RECITALS|witnesseth|dated|effective|for the purpose|in connection|pursuant|with respect|relating to|regarding|concerning)\b/i,
  );
  const cut = [sentenceEnd, clause]
    .filter((x) => x > 0)
    .reduce((a, b) => Math.min(a, b), Number.POSITIVE_INFINITY);
  if (Number.isFinite(cut)) rest = rest.slice(0, cut);
  // "between" joins two parties (commas there belong to addresses); "among" lists several.
  const among = /^(?:among|amongst)$/i.test(m[0]!);
  const parts = rest.split(
    among
      ? new RegExp(`\\s*;\\s*|,?\\s+and\\s+|,\\s+(?=[A-Z])(?!(?:${LEGAL_FORM})\\b)`)
      : /\s*;\s*|,?\s+and\s+/,
  );
  const items: string[] = [];
  for (let p of parts.flatMap(commaSeries)) {
    p = p
      .replace(DESCRIPTOR, '')
      // Whatever follows a comma in lower case describes the party (", to allow ...").
      .replace(/,\s+[a-z].*$/, '')
      .replace(/^\s*(?:and|the|each of|both)\s+/i, '')
      .replace(/[\s,;:.]+$/, '')
      .trim();
    p = p.replace(/\s+,/g, ',');
    if (!/^[A-Z0-9“"]/.test(p) || p.length < 2 || p.split(/\s+/).length > 10) continue;
    if (/^(?:the\s+)?(?:parties|company|recipient|discloser|each|both|either|me|you|us|we|i)$/i.test(p))
      continue;
    // A name: capitalised words, apart from connectors and corporate suffixes.
    const words = p.split(/\s+/);
    const named = words.filter(
      (w) =>
        /^[A-Z0-9“"&(]/.test(w) ||
        /^(?:of|the|and|for|de|du|la|le|von|van|der|den|ter|del|della|di|da|dos|das|&|co\.?|inc\.?|l\.?p\.?)$/i.test(
          w,
        ),
    );
    if (named.length < words.length) continue;
    items.push(p);
  }
  return items;
}

/**
 * "between A and B, C and D": the commas of a "between" belong to addresses ("Acme Corp,
 * Springfield, Illinois") unless every piece they part is a full name on its own, as in a
 * series of people ("Saoirse Oduya, Gideon Bergström").
 */
function commaSeries(part: string): string[] {
  const pieces = part.split(/,\s+(?=[A-Z])/);
  if (pieces.length < 2) return [part];
  const names = pieces.map((p) => p.replace(/^\s*and\s+/i, '').trim());
  return names.every((n) => isFullName(n) && !/\d/.test(n) && n.split(/\s+/).length <= 4 && !isLegalTail(n))
    ? names
    : [part];
}

/** A legal form alone ("Inc.", "L.L.C."), which a comma parts from its company's name. */
const LEGAL_TAIL = new RegExp(`^(?:${LEGAL_FORM})\\.?$`, 'i');
const isLegalTail = (p: string) => LEGAL_TAIL.test(p);

/** Roman numerals a clause may count its items with, in order. */
const ROMAN = ['i', 'ii', 'iii', 'iv', 'v', 'vi', 'vii', 'viii', 'ix', 'x', 'xi', 'xii'];

/** The n-th marker of each counting style a sentence uses for its items: (a), (i), (1). */
function markerStyles(n: number): string[] {
  return [String.fromCharCode(97 + n), ROMAN[n] ?? '', String(n + 1)].filter(Boolean);
}

/**
 * Items a sentence counts out with markers: "information that (a) is public; (b) was known
 * before; or (c) is developed independently" → the three clauses. The markers must run in
 * order from the first (a, i or 1) so that a stray "(c)" in a citation is not a list.
 */
export function markedItems(text: string): string[] {
  const marks = [...text.matchAll(/\(([a-z]{1,4}|\d{1,2})\)\s+|(?<=^|[\s;:,])([a-z]|\d{1,2})\)\s+/g)].map(
    (m) => ({
      label: (m[1] ?? m[2]!).toLowerCase(),
      start: m.index,
      end: m.index + m[0].length,
    }),
  );
  let best: string[] = [];
  for (let s = 0; s < 3; s++) {
    const run: typeof marks = [];
    for (const m of marks) {
      const want = markerStyles(run.length)[s];
      if (m.label === want) run.push(m);
      else if (run.length === 0) continue;
    }
    if (run.length < 2) continue;
    const items = run.map((m, i) => {
      let body = text.slice(m.end, run[i + 1]?.start ?? text.length);
      // The last item ends with its sentence; the joints between items are not part of them.
      if (i === run.length - 1) body = body.replace(/(?<!\b[A-Z])[.!?](?:\s.*)?$/s, '');
      return body.replace(/[\s;,:.]*(?:\b(?:and|or|und|oder|et|ou)\s*)?$/i, '').trim();
    });
    if (items.every((x) => x.length >= 2) && items.length > best.length) best = items;
  }
  return best;
}

/**
 * The entries a caption introduces in one line: "Modules completed: Risk management, Scheduling,
 * Burns and scalds" → the three. An "and" before the last entry joins it on when the word after
 * it starts the way the entries do (a capital after capitals, lower case after lower case);
 * otherwise the "and" is part of the entry's name.
 */
export function captionedSeries(text: string): string[] {
  const colon = /^([^:]{2,60}?):\s+(.+)$/s.exec(text.trim());
  if (!colon || colon[1]!.split(/\s+/).length > 6 || /\d$/.test(colon[1]!)) return [];
  const body = colon[2]!.replace(/[.;]\s*$/, '');
  const pieces = body.split(/\s*;\s*|,\s+/).map((p) => p.trim());
  const last = pieces.pop()!;
  const initial = (s: string) => (/^\p{Lu}/u.test(s) ? 'upper' : /^\p{Ll}/u.test(s) ? 'lower' : 'other');
  const kind = initial(pieces[0] ?? last);
  // An earlier entry joining two words the way entries start ("Sales and Marketing") makes the
  // last "and" part of a name too; "Refuelling and charging" joins nothing of the kind.
  const joinsLikeEntries = pieces.some((p) =>
    [...p.matchAll(/\s(?:and|&)\s+(\S)/g)].some((m) => initial(m[1]!) === kind),
  );
  // The rightmost "and" before a word that starts as the entries do parts the last two.
  const joints = [...last.matchAll(/,?\s+(?:and|&)\s+(?=(\S))/g)].filter(
    (m) => initial(m[1]!) === kind && m.index > 0,
  );
  const joint = joinsLikeEntries ? undefined : joints.at(-1);
  const tail = joint
    ? [last.slice(0, joint.index), last.slice(joint.index + joint[0].length)]
    : [last.replace(/^(?:and|&)\s+/, '')];
  const items = [...pieces, ...tail].map((p) => p.trim());
  if (items.length < 2) return [];
  // Entries are names of things, not clauses: short, and neither a figure nor a sentence.
  const entry = (p: string) =>
    p.length >= 2 && p.split(/\s+/).length <= 6 && /\p{L}{2}/u.test(p) && !/[.!?:]\s/.test(p);
  return items.every(entry) ? items : [];
}
