import { lexiconFile } from './lexicon-file.ts';

/**
 * What a question's noun names, from WordNet's lexicographer files (model/nouns.json, built by
 * `npm run build:synonyms`): a person ("approver", "tenant"), a group ("agency", "insurer") or a
 * place. A general-purpose lexicon: it knows every such noun, including the ones no training
 * document used.
 */
export type NounKind = 'person' | 'group' | 'place';

const load = lexiconFile<Record<string, NounKind>>('nouns.json');

/** The kind of a word as written, trying its singular when it is a plural ("tenants", "parties"). */
export function nounKind(word: string): NounKind | undefined {
  const w = word.toLowerCase();
  const t = load();
  if (t[w]) return t[w];
  if (w.endsWith('ies')) return t[`${w.slice(0, -3)}y`];
  if (w.endsWith('es') && t[w.slice(0, -2)]) return t[w.slice(0, -2)];
  if (w.endsWith('s')) return t[w.slice(0, -1)];
  return undefined;
}

const writings = lexiconFile<string[]>('writings.json');
let writingSet: Set<string> | null = null;

/**
 * Whether a word names a piece of writing ("Certificate", "Statement", "Agreements"): WordNet's
 * communication nouns (model/writings.json), so a title is told from a letterhead by what it
 * names, whatever the document.
 */
export function namesWriting(word: string): boolean {
  writingSet ??= new Set(writings());
  const w = word.toLowerCase();
  return writingSet.has(w) || (w.endsWith('s') && writingSet.has(w.slice(0, -1)));
}
