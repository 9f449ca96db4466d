import { lexiconFile } from './lexicon-file.ts';

const antonyms = lexiconFile<Record<string, string[]>>('antonyms.json');

/**
 * Words of opposite meaning, from the lexicon's antonyms (model/antonyms.json): "open" → "close",
 * "debit" → "credit", "start" → "finish". A label naming the opposite of what a question asks
 * for names another field, and a negated word says its opposite ("not include": "exclude").
 */
export function antonymStems(s: string): string[] {
  return antonyms()[s] ?? [];
}
