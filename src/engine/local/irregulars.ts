import { lexiconFile } from './lexicon-file.ts';

/**
 * Irregular verb forms and the verb they inflect ("paid" → "pay", "sold" → "sell"), from
 * WordNet's exception list (model/irregulars.json, built by `npm run build:synonyms`): a
 * question's "paid out" reads a "Net pay" caption as the same verb.
 */
const load = lexiconFile<Record<string, string>>('irregulars.json');

export function verbOf(word: string): string | undefined {
  const table = load();
  return Object.hasOwn(table, word) ? table[word] : undefined;
}
