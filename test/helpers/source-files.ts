import { readdirSync } from 'node:fs';
import path from 'node:path';

/** TypeScript sources below a folder (declaration files left out), as absolute paths in a stable order. */
export function sourceFilesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(?:c|m)?tsx?$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => path.join(dir, f))
    .sort();
}
