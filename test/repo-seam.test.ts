/**
 * Issue 14 ("a repository seam per aggregate"): rules reach SQL only through
 * `src/infra/repos/index.ts`, which hands out each aggregate's repository bound to a
 * connection or a transaction and names every query `<aggregate>.<function>`.
 * - No file outside `src/infra/repos` imports a repository module other than the seam.
 * - No file outside `src/infra` issues SQL (`.query(`) of its own.
 * - The names reach the per-process figures the benches print (slowest named queries).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryFigures, reportSlowQueries } from '../src/infra/db/named-query.ts';
import { logSlowQueries } from '../src/infra/logger.ts';
import { repos, transaction } from '../src/infra/repos/index.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { codeOnly, sourceFilesUnder } from './helpers/source-files.ts';

const SRC = path.resolve(import.meta.dirname, '../src');
const sources = sourceFilesUnder(SRC).map((file) => ({
  name: path.relative(SRC, file),
  text: readFileSync(file, 'utf8'),
}));

/** Import specifiers naming a repository module other than the seam itself. */
function repoModuleImports(text: string): string[] {
  return [...text.matchAll(/\bfrom\s+['"]([^'"]*\binfra\/repos\/(?!index\.ts)[^'"]+)['"]/g)].map((m) => m[1]);
}

/** `.query(` or `.query<` calls in code (comments and strings blanked). */
function ownSql(text: string): number {
  return [...codeOnly(text).matchAll(/\.query\s*(?:<[^>]*>)?\s*\(/g)].length;
}

describe('repository seam (issue 14)', () => {
  it('finds what it forbids', () => {
    expect(repoModuleImports(`import { findTable } from '../infra/repos/tables.ts';`)).toEqual([
      '../infra/repos/tables.ts',
    ]);
    expect(repoModuleImports(`import { repos } from '../infra/repos/index.ts';`)).toEqual([]);
    expect(ownSql(`await tx.query('SELECT 1');`)).toBe(1);
    expect(ownSql(`await db.query<{ n: number }>(sql, params);`)).toBe(1);
    expect(ownSql(`// tx.query('SELECT 1')\nconst s = "db.query(x)";`)).toBe(0);
  });

  it('no file outside src/infra/repos imports a repository module past the seam', () => {
    const offenders = sources
      .filter((f) => !f.name.startsWith(`infra${path.sep}repos${path.sep}`))
      .flatMap((f) => repoModuleImports(f.text).map((spec) => `${f.name}: ${spec}`));
    expect(offenders).toEqual([]);
    // The rules do use the seam: the check is not vacuous.
    expect(
      sources.filter((f) => f.name.startsWith('domain') && /infra\/repos\/index\.ts/.test(f.text)).length,
    ).toBeGreaterThan(15);
  });

  it('no file outside src/infra writes SQL of its own', () => {
    const offenders = sources
      .filter((f) => !f.name.startsWith(`infra${path.sep}`))
      .filter((f) => ownSql(f.text) > 0)
      .map((f) => f.name);
    expect(offenders).toEqual([]);
  });

  describe('named queries, on the real database', () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await createTestDatabase();
    });
    afterAll(() => t?.drop());

    it('every query a repository issues is counted under its aggregate and function, once', async () => {
      const before = new Map(queryFigures().map((f) => [f.name, f.calls]));
      const calls = (name: string) =>
        (queryFigures().find((f) => f.name === name)?.calls ?? 0) - (before.get(name) ?? 0);
      await transaction(t.db, async (r) => {
        await r.workspaces.insertWorkspace({
          id: 'wks_seam',
          name: 'seam',
          tier: 'silver',
          balance: 5,
          spend_cap: null,
          month_spend: 0,
          spend_month: '2026-11',
          created_at: 1,
          updated_at: 1,
        });
        expect((await r.workspaces.findWorkspace('wks_seam', { forUpdate: true }))?.balance).toBe(5);
      });
      expect(await repos(t.db).workspaces.findWorkspace('wks_seam')).toMatchObject({ name: 'seam' });
      expect(calls('workspaces.insertWorkspace')).toBe(1);
      expect(calls('workspaces.findWorkspace')).toBe(2);
      const figures = queryFigures().find((f) => f.name === 'workspaces.findWorkspace')!;
      expect(figures.p95Ms).toBeLessThanOrEqual(figures.maxMs);
      expect(figures.maxMs).toBeGreaterThanOrEqual(figures.meanMs);
      expect(figures.totalMs).toBeGreaterThan(0);
    });

    it('a query past SLOW_QUERY_MS is logged by its name and duration, never its parameters', async () => {
      const lines: Array<{ obj: Record<string, unknown>; msg: string }> = [];
      logSlowQueries(Number.MIN_VALUE, {
        warn: (obj, msg) => lines.push({ obj: obj as Record<string, unknown>, msg }),
      });
      try {
        await repos(t.db).workspaces.findWorkspace('wks_secret_lookup');
      } finally {
        reportSlowQueries(Number.POSITIVE_INFINITY, () => {});
      }
      expect(lines).toEqual([
        { obj: { query: 'workspaces.findWorkspace', ms: expect.any(Number) }, msg: 'slow query' },
      ]);
      expect(JSON.stringify(lines)).not.toContain('wks_secret_lookup');
      // 0 turns the log off.
      lines.length = 0;
      logSlowQueries(0, { warn: (obj, msg) => lines.push({ obj: obj as Record<string, unknown>, msg }) });
      await repos(t.db).workspaces.findWorkspace('wks_seam');
      expect(lines).toEqual([]);
    });
  });
});
