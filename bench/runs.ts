/**
 * `npm run bench:runs`: one whole run through the HTTP API on the embedded default (PGlite in
 * DATA_DIR, the local engine, the API and its worker in one process with default settings,
 * as `npm start` runs them). 100 generated documents (80 contracts and 20 annual reports
 * with pictures, 5 to 10 pages each) are uploaded and ingested through the real pipeline; a
 * table of 20 columns (every output type) x 100 file rows, 2,000 cells, is run with
 * POST …/runs and polled with GET …/runs/:runId until finished. Reported: time from the
 * POST to the finished run, cells/s, SUCCESS/ERROR, credits charged against the preview.
 * Reference measured in the same run: the same 2,000 cells answered by the local engine
 * directly, on this thread, with every page preloaded (the pure engine time); the ratio is
 * what the queue, the database, the holds and the API add, or save by answering on the
 * engine thread while the main thread writes. Target (issue 6): < 20 s.
 * `npm run bench:runs -- --profile` also times every database statement and transaction of
 * the run by kind, and the busy time of the main and engine threads.
 * With DATABASE_URL set, the same on PostgreSQL (a schema of its own, dropped at the end);
 * RUN_CONCURRENCY, ENGINE_THREADS, WORKER_CONCURRENCY and INGEST_THREADS are passed through.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { OutputType } from '../src/domain/columns.ts';
import { createLocalEngine } from '../src/engine/local/engine.ts';
import type { EngineColumn, EngineSubject } from '../src/engine/types.ts';
import type { Database, Queryable } from '../src/infra/db/database.ts';
import { resetQueryFigures } from '../src/infra/db/named-query.ts';
import { repos } from '../src/infra/repos/index.ts';
import {
  CLAUSES,
  contractPdf,
  makeContract,
  makeReport,
  makeRng,
  STATES,
} from '../test/fixtures/contract.ts';
import { type Json, startInProcessApp } from './in-process-app.ts';
import { printSlowestQueries } from './query-figures.ts';

const DOCS = 100;
const REPORTS = 20;
const TARGET_MS = 20_000;
const _ADMIN = 'bench-admin-token-0123456789';
const profile = process.argv.includes('--profile');

interface BenchColumn {
  name: string;
  prompt: string;
  outputType: OutputType;
  config?: Record<string, unknown>;
  creditRate?: number;
}

const COLUMNS: BenchColumn[] = [
  { name: 'Effective date', prompt: 'What is the effective date of the agreement?', outputType: 'date' },
  { name: 'Price', prompt: 'What is the total contract price?', outputType: 'number', creditRate: 10 },
  {
    name: 'Late interest',
    prompt: 'What interest rate applies to late payments, in percent?',
    outputType: 'number',
  },
  {
    name: 'Price adjustment',
    prompt: 'By what percentage is the price adjusted each year?',
    outputType: 'number',
  },
  { name: 'Term', prompt: 'How long is the initial term of the agreement?', outputType: 'text_quote' },
  { name: 'Governing law', prompt: "Which state's law governs the agreement?", outputType: 'text_quote' },
  {
    name: 'Governing law (state)',
    prompt: 'Under the law of which state is the agreement governed?',
    outputType: 'categorical',
    config: { categories: STATES },
  },
  {
    name: 'Invoicing',
    prompt: 'How often does the Supplier invoice the Customer?',
    outputType: 'categorical',
    config: { categories: ['monthly', 'quarterly', 'annually'] },
  },
  { name: 'Parties', prompt: 'Who are the parties to the agreement?', outputType: 'list_scalar' },
  { name: 'Deliverables', prompt: 'List the deliverables.', outputType: 'list_scalar', creditRate: 8 },
  { name: 'Key personnel', prompt: 'Who are the key personnel named?', outputType: 'list_scalar' },
  ...CLAUSES.map((c) => ({ name: c.id, prompt: c.question, outputType: 'boolean' as const })),
  { name: 'Title', prompt: 'What is the title of the document?', outputType: 'text_quote' },
  { name: 'Supplier', prompt: 'Who is the Supplier?', outputType: 'text_quote' },
  { name: 'Signature', prompt: 'The authorized signature', outputType: 'image' },
  { name: 'Figures', prompt: 'Show every figure or chart.', outputType: 'image_list' },
];

const ms = (t: number) => `${t.toFixed(0)} ms`;
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));

// --- profiling: every statement and transaction timed by kind --------------------------------

const KINDS: [RegExp, string][] = [
  [/FOR UPDATE OF c SKIP LOCKED/, 'claim: select queued cells (SKIP LOCKED)'],
  [/FROM table_rows r[\s\S]*bundle_members|subject_documents|FROM files f/, 'claim: subject documents'],
  [/SELECT[\s\S]*FROM workspaces[\s\S]*FOR UPDATE/, 'workspace row lock (FOR UPDATE)'],
  [/sum\(amount\)[\s\S]*credit_holds/, 'claim: held total'],
  [/INSERT INTO credit_holds/, 'hold insert'],
  [/UPDATE credit_holds/, 'hold capture/release'],
  [/INSERT INTO credit_ledger/, 'ledger insert'],
  [/UPDATE workspaces/, 'workspace balance update'],
  [/SET status = 'IN_PROGRESS'/, 'claim: mark cells started'],
  [/UPDATE cells c SET status = t.status/, 'mark cells ended'],
  [/cell_facts/, 'cell facts'],
  [/claim_id = \$2 AND status = 'IN_PROGRESS'/, 'finish: lock claimed cells'],
  [/UPDATE cells SET lease_until/, 'lease renewal'],
  [/UPDATE runs r/, 'settle runs'],
  [/FROM runs r\s+WHERE r.status IN/, 'stray-run sweep'],
  [/FROM file_pages/, 'page load'],
  [/SELECT r\.\*,/, 'GET run (pending count)'],
  [/^\s*(BEGIN|COMMIT|ROLLBACK)/i, 'BEGIN/COMMIT'],
];
const kindOf = (sql: string) =>
  KINDS.find(([re]) => re.test(sql))?.[1] ?? sql.replace(/\s+/g, ' ').trim().slice(0, 60);

class Stats {
  readonly by = new Map<string, { n: number; ms: number }>();
  add(kind: string, t: number) {
    const s = this.by.get(kind) ?? { n: 0, ms: 0 };
    s.n++;
    s.ms += t;
    this.by.set(kind, s);
  }
  reset() {
    this.by.clear();
  }
  print(title: string, wallMs: number, top = 16) {
    console.log(title);
    for (const [kind, s] of [...this.by].sort((a, b) => b[1].ms - a[1].ms).slice(0, top)) {
      console.log(
        `  ${kind.padEnd(44)} ${String(s.n).padStart(6)} x ${(s.ms / s.n).toFixed(2).padStart(7)} ms = ` +
          `${ms(s.ms).padStart(8)} (${((100 * s.ms) / wallMs).toFixed(0)}% of the run)`,
      );
    }
  }
}
const statements = new Stats();
const transactions = new Stats();

function profiled(db: Database): Database {
  const timedQuery =
    (q: Queryable, onFirst?: (kind: string) => void): Queryable['query'] =>
    async (sql, params) => {
      onFirst?.(kindOf(sql));
      const t = performance.now();
      try {
        return await q.query(sql, params);
      } finally {
        statements.add(kindOf(sql), performance.now() - t);
      }
    };
  return {
    kind: db.kind,
    query: timedQuery(db),
    async transaction(fn) {
      const t = performance.now();
      let first = '';
      try {
        return await db.transaction((tx) =>
          fn({
            query: timedQuery(tx, (k) => {
              first ||= k;
            }),
          }),
        );
      } finally {
        const name =
          first === 'claim: select queued cells (SKIP LOCKED)'
            ? 'claim transaction'
            : first === 'finish: lock claimed cells'
              ? 'finish transaction'
              : `transaction starting with: ${first}`;
        transactions.add(name, performance.now() - t);
      }
    },
    close: () => db.close(),
  };
}

/** Main-thread CPU samples of the run by where their code lives, and the hottest functions. */
function printCpuProfile(p: import('node:inspector').Profiler.Profile, file: string): void {
  writeFileSync(file, JSON.stringify(p));
  const self = new Map<number, number>();
  const deltas = p.timeDeltas ?? [];
  const samples = p.samples ?? [];
  for (let i = 0; i < samples.length; i++) {
    self.set(samples[i]!, (self.get(samples[i]!) ?? 0) + (deltas[i] ?? 0) / 1000);
  }
  const area = (url: string, fn: string) => {
    if (!url) return fn.startsWith('(') ? fn : 'native / builtin';
    if (url.startsWith('wasm://')) return 'PGlite (PostgreSQL in WASM)';
    if (url.includes('@electric-sql/pglite')) return 'PGlite (JS side: protocol, parsing)';
    if (url.includes('/node_modules/'))
      return `node_modules/${url.split('/node_modules/').pop()!.split('/')[0]}`;
    if (url.startsWith('node:')) return 'node internals';
    const m = /\/(src|bench|test)\/(.*)$/.exec(url);
    return m ? `${m[1]}/${m[2]!.split('/').slice(0, -1).join('/') || '.'}` : url;
  };
  const byArea = new Map<string, number>();
  const byFn = new Map<string, number>();
  let total = 0;
  for (const node of p.nodes) {
    const t = self.get(node.id) ?? 0;
    if (!t) continue;
    total += t;
    const { url, functionName, lineNumber } = node.callFrame;
    const a = area(url, functionName);
    byArea.set(a, (byArea.get(a) ?? 0) + t);
    const f = `${functionName || '(anonymous)'} ${url ? `${url.split('/').slice(-2).join('/')}:${lineNumber + 1}` : ''}`;
    byFn.set(f, (byFn.get(f) ?? 0) + t);
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((x, y) => y[1] - x[1])
      .slice(0, n)
      .map(
        ([k, v]) =>
          `  ${k.slice(0, 70).padEnd(70)} ${ms(v).padStart(8)} (${((100 * v) / total).toFixed(0)}%)`,
      );
  console.log(`main-thread CPU samples of the run (${ms(total)}; profile in ${file}):`);
  console.log(top(byArea, 10).join('\n'));
  console.log('hottest functions (self time):');
  console.log(top(byFn, 12).join('\n'));
}

/** The engine threads, found as they are sent their first cell: their busy time is read from here. */
const engineThreads = new Set<Worker>();
if (profile) {
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (this: Worker, value: unknown, transfer?: never) {
    if (value && typeof value === 'object' && 'column' in value && 'documents' in value)
      engineThreads.add(this);
    return post.call(this, value, transfer);
  };
}

// --- the app, as `npm start` runs it ---------------------------------------------------------

const { config, rawDb, base, call, adminCall, close } = await startInProcessApp(
  'runs',
  // Defaults unless set, to try others: RUN_CONCURRENCY=4 npm run bench:runs
  Object.fromEntries(
    ['RUN_CONCURRENCY', 'ENGINE_THREADS', 'WORKER_CONCURRENCY', 'INGEST_THREADS']
      .filter((k) => process.env[k])
      .map((k) => [k, process.env[k]!]),
  ),
  (db) => (profile ? profiled(db) : db),
);

try {
  const ws = await adminCall('POST', '/admin/workspaces', {
    name: 'bench',
    tier: 'gold',
    credits: 10_000_000,
    spendCap: null,
  });
  const key: string = (await adminCall('POST', `/admin/workspaces/${ws.id}/keys`, { level: 'read_write' }))
    .key;
  const v2 = (method: string, p: string, body?: unknown) =>
    call(method, `/v2/workspaces/${ws.id}${p}`, body, { 'x-api-key': key });

  // --- documents ---------------------------------------------------------------------------
  const tGen = performance.now();
  const rng = makeRng(20_260_601);
  const pdfs: { name: string; data: Uint8Array }[] = [];
  for (let i = 0; i < DOCS; i++) {
    const pageCount = 5 + (i % 6);
    if (i % (DOCS / REPORTS) === 0) {
      pdfs.push({ name: `report-${i}.pdf`, data: makeReport(rng, { pageCount }).pdf });
    } else {
      pdfs.push({ name: `contract-${i}.pdf`, data: await contractPdf(makeContract(rng, { pageCount })) });
    }
  }
  const genMs = performance.now() - tGen;
  const tIngest = performance.now();
  const jobs: { id: string; fileId: string }[] = [];
  for (const pdf of pdfs) {
    const form = new FormData();
    form.append('file', new Blob([pdf.data]), pdf.name);
    const r = await fetch(`${base}/v2/workspaces/${ws.id}/files`, {
      method: 'POST',
      headers: { 'x-api-key': key },
      body: form,
    });
    if (r.status !== 200) throw new Error(`upload: ${r.status} ${await r.text()}`);
    jobs.push(((await r.json()) as { data: { id: string; fileId: string } }).data);
  }
  for (const job of jobs) {
    for (;;) {
      const j = await v2('GET', `/jobs/${job.id}`);
      if (j.status === 'ERROR') throw new Error(`ingest: ${j.statusText}`);
      if (j.status === 'SUCCESS') break;
      await sleep(200);
    }
  }
  const ingestMs = performance.now() - tIngest;
  const fileIds = jobs.map((j) => j.fileId);
  const pageCount = (
    await rawDb.query<{ n: number }>('SELECT count(*)::int AS n FROM file_pages WHERE file_id = ANY($1)', [
      fileIds,
    ])
  )[0]!.n;
  console.log(
    `documents: ${DOCS} (${DOCS - REPORTS} contracts, ${REPORTS} reports with pictures), ${pageCount} pages, ` +
      `generated in ${ms(genMs)}, uploaded and ingested in ${ms(ingestMs)} (${(pageCount / (ingestMs / 1000)).toFixed(1)} pages/s; not part of the target)`,
  );

  // --- the table -----------------------------------------------------------------------------
  const table = await v2('POST', '/tables', { name: 'bench runs' });
  for (const c of COLUMNS) {
    await v2('POST', `/tables/${table.id}/columns`, {
      name: c.name,
      prompt: c.prompt,
      outputType: c.outputType,
      ...(c.config ? { config: JSON.stringify(c.config) } : {}),
      ...(c.creditRate ? { creditRate: c.creditRate } : {}),
    });
  }
  for (const fileId of fileIds) {
    await v2('POST', `/tables/${table.id}/rows`, { subjectType: 'file', subjectId: fileId });
  }
  const preview = await v2('GET', `/tables/${table.id}/runs/preview`);
  const balanceBefore: number = (await adminCall('GET', `/admin/workspaces/${ws.id}`)).balance;

  // --- the run -------------------------------------------------------------------------------
  statements.reset();
  transactions.reset();
  resetQueryFigures();
  const inspector = profile ? new Session() : null;
  if (inspector) {
    inspector.connect();
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.setSamplingInterval', { interval: 500 });
    await inspector.post('Profiler.start');
  }
  const eluMain0 = performance.eventLoopUtilization();
  const tRun = performance.now();
  const started = await v2('POST', `/tables/${table.id}/runs`, {});
  const runId: string = started.run.id;
  let run: Json = started.run;
  const pollMs: number[] = [];
  let firstCellMs: number | null = null;
  while (!['SUCCESS', 'ERROR', 'CANCELED'].includes(run.status)) {
    await sleep(100);
    const tPoll = performance.now();
    run = await v2('GET', `/tables/${table.id}/runs/${runId}`);
    pollMs.push(performance.now() - tPoll);
    if (firstCellMs === null && run.pendingCells < run.totalCells) firstCellMs = performance.now() - tRun;
    if (performance.now() - tRun > 600_000) throw new Error(`run still ${run.status} after 10 minutes`);
  }
  const runMs = performance.now() - tRun;
  const eluMain = performance.eventLoopUtilization(eluMain0);
  const cpuProfile = inspector ? (await inspector.post('Profiler.stop')).profile : null;
  inspector?.disconnect();
  // The engine threads start with the run's first cell: their whole life is the run.
  const threadBusy = [...engineThreads].map((t) => t.performance.eventLoopUtilization().active);

  const counts = await rawDb.query<{ status: string; n: number }>(
    'SELECT status, count(*)::int AS n FROM cells WHERE run_id = $1 GROUP BY status ORDER BY status',
    [runId],
  );
  const errorTexts = await rawDb.query<{ status_text: string; n: number }>(
    `SELECT status_text, count(*)::int AS n FROM cells WHERE run_id = $1 AND status = 'ERROR'
      GROUP BY status_text ORDER BY n DESC LIMIT 3`,
    [runId],
  );
  const captured = (
    await rawDb.query<{ n: number }>(
      `SELECT COALESCE(sum(amount), 0)::int AS n FROM credit_holds WHERE run_id = $1 AND state = 'captured'`,
      [runId],
    )
  )[0]!.n;
  const balanceAfter: number = (await adminCall('GET', `/admin/workspaces/${ws.id}`)).balance;
  const n = (s: string) => counts.find((c) => c.status === s)?.n ?? 0;

  // --- reference: the same cells, engine only, pages preloaded ---------------------------------
  const tLoad = performance.now();
  const pages = await repos(rawDb).enginePages.loadEnginePages(fileIds);
  const loadMs = performance.now() - tLoad;
  const engine = createLocalEngine();
  const names = new Map(jobs.map((j, i) => [j.fileId, pdfs[i]!.name]));
  const columns: EngineColumn[] = COLUMNS.map((c) => ({
    prompt: c.prompt,
    outputType: c.outputType,
    config: (c.config as EngineColumn['config']) ?? null,
    isCompositional: false,
    locale: null,
  }));
  let refOk = 0;
  const tRef = performance.now();
  for (const fileId of fileIds) {
    const subject: EngineSubject = {
      kind: 'file',
      documents: [
        {
          fileId,
          fileName: names.get(fileId)!,
          pages: pages.get(fileId)!,
          isPrimary: true,
          role: null,
          effectiveAt: null,
          sortOrder: 0,
        },
      ],
    };
    for (const column of columns) {
      if ((await engine.answer(column, subject)).status === 'SUCCESS') refOk++;
    }
  }
  const refMs = performance.now() - tRef;
  await engine.close?.();

  // --- report --------------------------------------------------------------------------------
  const cells: number = started.cells;
  const serverMs = run.finishedAt - run.startedAt;
  console.log(
    `\nrun: ${cells} cells (${DOCS} file rows x ${COLUMNS.length} columns), database ${rawDb.kind}, ` +
      `engine threads ${config.engineThreads}, run concurrency ${config.runConcurrency}`,
  );
  console.log(
    `  POST run to finished (polled every 100 ms): ${ms(runMs).padStart(8)}  ${(cells / (runMs / 1000)).toFixed(0)} cells/s ` +
      `(server side startedAt to finishedAt ${ms(serverMs)}; first cell done within ${ms(firstCellMs ?? runMs)})`,
  );
  pollMs.sort((x, y) => x - y);
  console.log(
    `  GET run while the run went on: ${pollMs.length} polls, p50 ${ms(pollMs[Math.floor(pollMs.length / 2)]!)}, ` +
      `max ${ms(pollMs[pollMs.length - 1]!)} (the API shares the process with the worker)`,
  );
  console.log(
    `  status ${run.status}; cells SUCCESS ${n('SUCCESS')}, ERROR ${n('ERROR')}` +
      `${counts.some((c) => !['SUCCESS', 'ERROR'].includes(c.status)) ? `, other ${JSON.stringify(counts)}` : ''}`,
  );
  if (errorTexts.length) {
    console.log(`  ERROR texts: ${errorTexts.map((e) => `${e.n}x "${e.status_text}"`).join('; ')}`);
  }
  console.log(
    `  credits: preview cost ${preview.cost} (upper bound), captured ${captured}, balance moved by ${balanceBefore - balanceAfter}`,
  );
  console.log(
    `  reference, engine.answer alone on this thread with pages preloaded: ${ms(refMs).padStart(8)}  ` +
      `${(cells / (refMs / 1000)).toFixed(0)} cells/s (${refOk} SUCCESS); the run takes ${(runMs / refMs).toFixed(2)}x that`,
  );
  console.log(`  reference, loadEnginePages of all ${DOCS} documents at once: ${ms(loadMs)}`);
  console.log(
    `  main thread busy ${((100 * eluMain.active) / runMs).toFixed(0)}% of the run (${ms(eluMain.active)})` +
      (profile
        ? `; engine thread(s) busy ${threadBusy.map((b) => `${ms(b)} (${((100 * b) / runMs).toFixed(0)}%)`).join(', ') || 'n/a'}`
        : ''),
  );
  printSlowestQueries('\nslowest named queries during the run (total time, this process):');
  if (profile) {
    statements.print('\nstatements during the run (await time, including waits for the database):', runMs);
    transactions.print('transactions during the run:', runMs, 8);
    if (cpuProfile)
      printCpuProfile(cpuProfile, path.join(os.tmpdir(), `folio-bench-runs-${process.pid}.cpuprofile`));
  }
  const ok = run.status === 'SUCCESS' && n('SUCCESS') > 0 && balanceBefore - balanceAfter === captured;
  const met = runMs < TARGET_MS && ok;
  if (!met) process.exitCode = 1;
  console.log(
    `\ntarget < ${TARGET_MS / 1000} s for ${cells} cells: ${met ? 'MET' : 'NOT MET'} (${(runMs / 1000).toFixed(1)} s)` +
      `${ok ? '' : ' -- the run did not succeed or its charges do not add up'}`,
  );
  console.log(
    `machine: ${os.availableParallelism()} cores, ${os.cpus()[0]?.model}; database: ${rawDb.kind === 'postgres' ? 'PostgreSQL' : 'embedded PGlite'}`,
  );
} finally {
  await close();
}
