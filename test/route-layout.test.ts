/**
 * Issue 14: every resource is `src/http/routes/<resource>/<verb>.ts`, one route per file with its
 * schema beside the handler, plus an `index.ts` that only registers them. A newcomer then finds a
 * route by its resource and verb, and a file never grows back into a list of routes.
 *
 * Routes are registered here as `app.get(...)`, `app.post(...)` and so on, on the `App` every
 * route function receives; these checks count that form.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFilesUnder as sourceFiles } from './helpers/source-files.ts';

const ROUTES = path.resolve(import.meta.dirname, '../src/http/routes');
const REGISTRATION = /\bapp\s*\.\s*(?:get|post|put|patch|delete|head|options|all|route)\s*\(/g;

/** Registrations in code; a comment may show one without making one. */
function registrations(file: string): number {
  const code = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  return code.match(REGISTRATION)?.length ?? 0;
}

const files = sourceFiles(ROUTES).map((file) => ({
  file: path.relative(ROUTES, file),
  count: registrations(file),
}));

describe('route layout (issue 14)', () => {
  it('finds the routes it checks (the pattern still matches how routes are registered)', () => {
    expect(files.reduce((sum, f) => sum + f.count, 0)).toBeGreaterThan(50);
  });

  it('no route file registers more than one route', () => {
    const crowded = files.filter((f) => path.basename(f.file) !== 'index.ts' && f.count > 1);
    expect(crowded).toEqual([]);
  });

  it('an index.ts registers no route itself, only calls its verb files', () => {
    const indexes = files.filter((f) => path.basename(f.file) === 'index.ts');
    expect(indexes.filter((f) => f.count > 0)).toEqual([]);
  });

  it('every resource folder has an index.ts', () => {
    const resources = readdirSync(ROUTES, { withFileTypes: true }).filter((e) => e.isDirectory());
    const missing = resources
      .map((e) => e.name)
      .filter((name) => !files.some((f) => f.file === `${name}/index.ts`));
    expect(missing).toEqual([]);
  });
});
