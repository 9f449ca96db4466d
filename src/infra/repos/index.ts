import type { Database, Queryable } from '../db/database.ts';
import { named } from '../db/named-query.ts';
import * as apiKeys from './api-keys.ts';
import * as bundles from './bundles.ts';
import * as cellEvents from './cell-events.ts';
import * as cellFacts from './cell-facts.ts';
import * as cellOverrides from './cell-overrides.ts';
import * as cellQueue from './cell-queue.ts';
import * as cells from './cells.ts';
import * as columns from './columns.ts';
import * as enginePages from './engine-pages.ts';
import * as files from './files.ts';
import * as health from './health.ts';
import * as holds from './holds.ts';
import * as idempotencyKeys from './idempotency-keys.ts';
import * as instanceSettings from './instance-settings.ts';
import * as items from './items.ts';
import * as jobs from './jobs.ts';
import * as ledger from './ledger.ts';
import * as metrics from './metrics.ts';
import * as pageHashes from './page-hashes.ts';
import * as pageVectors from './page-vectors.ts';
import * as rows from './rows.ts';
import * as runSubjects from './run-subjects.ts';
import * as runs from './runs.ts';
import * as searchLexemes from './search-lexemes.ts';
import * as searchPages from './search-pages.ts';
import * as searchRequests from './search-requests.ts';
import * as shareTrail from './share-trail.ts';
import * as tableFingerprint from './table-fingerprint.ts';
import * as tables from './tables.ts';
import * as uploadSessions from './upload-sessions.ts';
import * as webhooks from './webhooks.ts';
import * as workspaces from './workspaces.ts';

/**
 * The repository seam: the only door from rules (domain, ingest, search, routes) to SQL.
 * Each aggregate's repository module is handed out bound to a connection or a
 * transaction, and every query it issues is named `<aggregate>.<function>` for logs,
 * traces and the benches' slowest-query figures. Outside `src/infra`, nothing imports a
 * repository module directly (test/layering.test.ts).
 */
const modules = {
  apiKeys,
  bundles,
  cellEvents,
  cellFacts,
  cellOverrides,
  cellQueue,
  cells,
  columns,
  enginePages,
  files,
  health,
  idempotencyKeys,
  holds,
  instanceSettings,
  items,
  jobs,
  ledger,
  metrics,
  pageHashes,
  pageVectors,
  rows,
  runSubjects,
  runs,
  searchLexemes,
  searchPages,
  searchRequests,
  shareTrail,
  tableFingerprint,
  tables,
  uploadSessions,
  webhooks,
  workspaces,
};

type Bound<M> = {
  [K in keyof M as M[K] extends (q: Queryable, ...args: never[]) => unknown ? K : never]: M[K] extends (
    q: Queryable,
    ...args: infer A
  ) => infer R
    ? (...args: A) => R
    : never;
};

export type Repos = { readonly [K in keyof typeof modules]: Bound<(typeof modules)[K]> };

const cache = new WeakMap<Queryable, Repos>();

function bind(q: Queryable): Repos {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [aggregate, mod] of Object.entries(modules)) {
    const bound: Record<string, unknown> = {};
    for (const [fn, value] of Object.entries(mod)) {
      if (typeof value !== 'function') continue;
      const name = `${aggregate}.${fn}`;
      bound[fn] = (...args: unknown[]) => value(named(q, name), ...args);
    }
    out[aggregate] = bound;
  }
  return out as unknown as Repos;
}

/** The repositories over a connection or a transaction (bound once per Queryable). */
export function repos(q: Queryable): Repos {
  let r = cache.get(q);
  if (!r) {
    r = bind(q);
    cache.set(q, r);
  }
  return r;
}

/**
 * Runs fn in one read-only transaction that sees one snapshot throughout (REPEATABLE READ):
 * several reads that must agree, such as a fingerprint and the body filed under it.
 */
export function snapshot<T>(db: Database, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await named(tx, 'snapshot.begin').query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    return fn(tx);
  });
}

/** Runs fn in one transaction with the repositories bound to it; any throw rolls back. */
export function transaction<T>(db: Database, fn: (r: Repos, tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction((tx) => fn(repos(tx), tx));
}

export type * from './api-keys.ts';
export type * from './bundles.ts';
export type * from './cell-events.ts';
export type * from './cell-facts.ts';
export type * from './cell-overrides.ts';
export type * from './cell-queue.ts';
export type * from './cells.ts';
export type * from './columns.ts';
export type * from './engine-pages.ts';
export type * from './files.ts';
export { FILE_SORT_COLUMNS } from './files.ts';
export type * from './health.ts';
export type * from './holds.ts';
export type * from './idempotency-keys.ts';
export type * from './instance-settings.ts';
export type * from './items.ts';
export { ITEM_SORT_COLUMNS, ITEM_UPLOAD_ORDER } from './items.ts';
export type * from './jobs.ts';
export { JOB_SORT_COLUMNS } from './jobs.ts';
export type * from './ledger.ts';
export type * from './metrics.ts';
export type * from './page-hashes.ts';
export type * from './page-vectors.ts';
export { fromBytes, toBytes } from './page-vectors.ts';
export type * from './rows.ts';
export type * from './run-subjects.ts';
export type * from './runs.ts';
export type * from './search-lexemes.ts';
export type * from './search-pages.ts';
export type * from './search-requests.ts';
export type * from './share-trail.ts';
export type * from './table-fingerprint.ts';
export type * from './tables.ts';
export type * from './upload-sessions.ts';
export type * from './webhooks.ts';
export type * from './workspaces.ts';
