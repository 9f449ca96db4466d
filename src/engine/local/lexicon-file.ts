import { readFileSync } from 'node:fs';

/** A table of model/ built by `npm run build:synonyms`, read on first use and kept. */
export function lexiconFile<T>(name: string): () => T {
  let table: T | null = null;
  return () => {
    table ??= JSON.parse(readFileSync(new URL(`./model/${name}`, import.meta.url), 'utf8')) as T;
    return table;
  };
}
