import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import v8 from 'node:v8';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { type Database, parseInt8, type Queryable } from './database.ts';
import { translateDbError } from './pg-errors.ts';

const INT8_OID = 20;

/**
 * PGlite keeps shared buffers in its WASM heap: the 128 MB default would be resident memory
 * of its own; one process on one data directory needs far less.
 */
export const PGLITE_CONF = ['shared_buffers=16MB'];

/** V8 settings that, given on node's command line, pglitePgModule leaves as they are. */
const TIERING_FLAGS = /^--(no-)?(wasm-dynamic-tiering|wasm-tier-up|wasm-lazy-compilation|liftoff)/;

type WasmModule = NonNullable<PGliteOptions['pgliteWasmModule']>;
/** The global WebAssembly object (the es2024 lib the project compiles against does not declare it). */
const Wasm = (globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => WasmModule } })
  .WebAssembly;

let pgModule: Promise<WasmModule> | null = null;

/**
 * PGlite's WASM module (postgres), compiled once per process and without tier-up. V8 runs
 * WASM first as baseline (Liftoff) code and recompiles each function that turns hot with its
 * optimising compiler (TurboFan) in the background. One of PGlite's is PostgreSQL's SQL parser
 * (base_yyparse, 105 KB of WASM), hot after a few hundred statements: TurboFan takes about
 * 600 MB for about 0.5 s to compile it, which was the service's whole peak RSS (~700 MB
 * against ~250 MB otherwise), whenever it came (at start, right after the migrations). So
 * this one module is compiled with tier-up off, synchronously, and the flags are put back at
 * once: every other module (PDFium, compiled later in the page threads) still tiers up. The
 * price, measured on ingest: about 0.7 ms more main-thread CPU per page (baseline code for
 * the database), and no 0.5 s compile. A tiering flag given on node's command line wins.
 */
export function pglitePgModule(): Promise<WasmModule> {
  pgModule ??= (async () => {
    const bytes = await readFile(new URL('./pglite.wasm', import.meta.resolve('@electric-sql/pglite')));
    if (process.execArgv.some((a) => TIERING_FLAGS.test(a))) return new Wasm.Module(bytes);
    // V8 reads these when it compiles a function; compiled eagerly, every function of this
    // module is compiled here, in one synchronous call (~250 ms) that nothing can interleave with.
    v8.setFlagsFromString('--no-wasm-dynamic-tiering');
    v8.setFlagsFromString('--no-wasm-tier-up');
    v8.setFlagsFromString('--no-wasm-lazy-compilation');
    try {
      return new Wasm.Module(bytes);
    } finally {
      v8.setFlagsFromString('--wasm-dynamic-tiering');
      v8.setFlagsFromString('--wasm-tier-up');
      v8.setFlagsFromString('--wasm-lazy-compilation');
    }
  })();
  return pgModule;
}

const INITDB = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pglite-initdb.ts');

/**
 * A new data directory is created, and migrated, by a child process (initdb's WASM heap
 * peaks at about 1.2 GB and the first migrations add 500 MB, none of it given back), in a
 * temporary directory renamed into place once complete, so a start killed midway leaves
 * no half-made database behind.
 */
async function initInChild(dataDir: string): Promise<void> {
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  // Something other than an empty directory: leave it to PGlite, as before.
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) return;
  const tmp = `${dataDir}.initdb-tmp`;
  await rm(tmp, { recursive: true, force: true });
  await mkdir(path.dirname(dataDir), { recursive: true });
  try {
    await promisify(execFile)(process.execPath, [INITDB, tmp], {
      env: { ...process.env, NODE_OPTIONS: '' },
      maxBuffer: 4 * 1024 * 1024,
    });
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    const stderr = (err as { stderr?: string }).stderr?.trim();
    throw new Error(`Creating the embedded database failed${stderr ? `: ${stderr.slice(-2000)}` : ''}`, {
      cause: err,
    });
  }
  await rm(dataDir, { recursive: true, force: true });
  await rename(tmp, dataDir);
}

/** dataDir null keeps the database in memory (tests). */
export async function openPglite(dataDir: string | null): Promise<Database> {
  if (dataDir) await initInChild(dataDir);
  const pg = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    pgliteWasmModule: await pglitePgModule(),
    parsers: { [INT8_OID]: parseInt8 },
    postgresqlconf: PGLITE_CONF,
  });
  return asDatabase(pg);
}

/** The Database surface over an open PGlite. */
export function asDatabase(pg: PGlite): Database {
  const asQueryable = (q: Pick<PGlite, 'query'>): Queryable => ({
    async query<R>(sql: string, params: readonly unknown[] = []) {
      try {
        const res = await q.query<R>(sql, params as unknown[]);
        return res.rows;
      } catch (err) {
        throw translateDbError(err);
      }
    },
  });
  const root = asQueryable(pg);
  return {
    kind: 'pglite',
    query: root.query,
    // PGlite serialises transactions behind its own mutex, so a single connection is safe.
    transaction: (fn) =>
      pg
        .transaction((tx) => fn(asQueryable(tx)))
        .catch((err: unknown) => {
          throw translateDbError(err);
        }),
    close: () => pg.close(),
  };
}
