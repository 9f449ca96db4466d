/**
 * `npm run bench:engine`: throughput of the local answer engine on single-document rows.
 * Generates 20 contracts of 10 pages (parties, an effective date, fees, a term, a
 * termination clause, a governing-law clause, a signature page), ingests them through the
 * app and a worker, then answers 20 documents x 8 columns (every output type) 7 times
 * over (1,120 cells). Each pass is one run over the table: pages come from the database
 * through the cell runner's page cache (PageCache), empty at the start of each pass, so a
 * document is read once per pass as a run reads it once for all its columns. Passes after the
 * first reuse the engine's per-document index, as a run over several columns of the same rows
 * does; a cold pass (every cell on a document the engine has not seen, its pages read again)
 * is reported too. References measured in the same run: loadEnginePages per cell without a
 * cache, and a trivial pass (JSON.stringify of each cell's pages). Target (issue): >= 200
 * cells/s.
 * `npm run bench:engine -- --verbose` also lists wrong answers of the warm-up pass.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLocalEngine } from '../src/engine/local/engine.ts';
import { PageCache } from '../src/engine/page-cache.ts';
import type { EngineAnswer, EnginePage, EngineSubject } from '../src/engine/types.ts';
import { repos } from '../src/infra/repos/index.ts';
import { makeTextPdf } from '../test/fixtures/pdf.ts';
import { startHarness } from '../test/helpers/harness.ts';
import { type BenchColumn, COLUMNS, makeContract, PAGES } from './engine-contracts.ts';
import { scoreValue } from './eval/score.ts';
import { scorerSetting } from './scorer-setting.ts';

const DOCS = 20;
const MIN_CELLS = 1000;
const TARGET_CELLS_PER_SECOND = 200;

/** --verbose: print the warm-up answers that disagree with what the document states. */
const verbose = process.argv.includes('--verbose');
const ms = (t: number) => `${t.toFixed(0)} ms`;
const rate = (n: number, t: number) => (n / (t / 1000)).toFixed(0);

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'folio-bench-engine-'));
const h = await startHarness({ DATA_DIR: dataDir }, { worker: true });
const engine = createLocalEngine(scorerSetting());
try {
  const ws = await h.workspace({ tier: 'gold', credits: 10_000_000, spendCap: null });

  // --- documents ------------------------------------------------------------------------
  const tGen = performance.now();
  const contracts = Array.from({ length: DOCS }, (_, i) => makeContract(i));
  const pdfs: Uint8Array[] = [];
  // PDFium refuses an empty text object: a blank line is drawn as one space.
  for (const c of contracts) {
    pdfs.push(
      await makeTextPdf(
        c.pages.map((lines) => lines.map((l) => l || ' ')),
        { fontSize: 10 },
      ),
    );
  }
  const genMs = performance.now() - tGen;
  const tIngest = performance.now();
  const jobs: { id: string; fileId: string }[] = [];
  for (const [i, pdf] of pdfs.entries()) {
    const r = await h.upload(ws, { file: { data: pdf, name: `contract-${i + 1}.pdf` } });
    if (r.status !== 200) throw new Error(`upload: ${r.status} ${await r.text()}`);
    jobs.push(((await r.json()) as { data: { id: string; fileId: string } }).data);
  }
  for (const job of await Promise.all(jobs.map((j) => h.waitJob(ws, j.id, 600_000)))) {
    if (job.status !== 'SUCCESS') throw new Error(`ingest: ${job.statusText}`);
  }
  const ingestMs = performance.now() - tIngest;
  const docs = jobs.map((j, i) => ({
    fileId: j.fileId,
    fileName: `contract-${i + 1}.pdf`,
    truth: contracts[i]!.truth,
  }));
  const preloaded = await repos(h.db).enginePages.loadEnginePages(docs.map((d) => d.fileId));
  const pageCount = [...preloaded.values()].reduce((a, p) => a + p.length, 0);
  const wordCount = [...preloaded.values()].reduce(
    (a, ps) => a + ps.reduce((b, p) => b + p.words.length, 0),
    0,
  );
  console.log(
    `documents: ${DOCS} x ${PAGES} pages generated in ${ms(genMs)}, ingested in ${ms(ingestMs)} ` +
      `(${pageCount} pages, ${Math.round(wordCount / pageCount)} words per page)`,
  );

  const subjectOf = (d: (typeof docs)[number], pages: EnginePage[]): EngineSubject => ({
    kind: 'file',
    documents: [
      {
        fileId: d.fileId,
        fileName: d.fileName,
        pages,
        isPrimary: true,
        role: null,
        effectiveAt: null,
        sortOrder: 0,
      },
    ],
  });
  const cells: { doc: (typeof docs)[number]; c: BenchColumn }[] = [];
  for (const doc of docs) for (const c of COLUMNS) cells.push({ doc, c });
  const passes = Math.ceil(MIN_CELLS / cells.length);
  const total = cells.length * passes;

  // --- warm-up pass: answers for the sanity summary, JIT and caches warm ----------------
  const byType = new Map<
    string,
    { success: number; error: number; right: number; scored: number; ms: number }
  >();
  const errorTexts = new Map<string, number>();
  for (const { doc, c } of cells) {
    const pages = (await repos(h.db).enginePages.loadEnginePages([doc.fileId])).get(doc.fileId)!;
    const t = performance.now();
    let a: EngineAnswer;
    try {
      a = await engine.answer(c.column, subjectOf(doc, pages));
    } catch (err) {
      a = { status: 'ERROR', statusText: `threw: ${(err as Error).message}`, facts: [] };
    }
    const dt = performance.now() - t;
    const s = byType.get(c.column.outputType) ?? { success: 0, error: 0, right: 0, scored: 0, ms: 0 };
    s.ms += dt;
    if (a.status === 'SUCCESS') s.success++;
    else {
      s.error++;
      errorTexts.set(a.statusText, (errorTexts.get(a.statusText) ?? 0) + 1);
    }
    if (c.spec) {
      s.scored++;
      const v = scoreValue(c.spec, c.expect(doc.truth), a);
      if (v.right) s.right++;
      else if (verbose) {
        const got = a.status === 'SUCCESS' ? JSON.stringify(a.value) : `ERROR ${a.statusText}`;
        console.log(
          `wrong: ${doc.fileName} ${c.spec.field}: expected ${v.expectedNorm}, got ${got} [${v.gotNorm}]`,
        );
      }
    }
    byType.set(c.column.outputType, s);
  }

  // --- timed: load pages + answer, as a run does ----------------------------------------
  let loadMs = 0;
  let answerMs = 0;
  const latencies: number[] = [];
  const tRun = performance.now();
  for (let p = 0; p < passes; p++) {
    // Each pass is one run over the table: its pages come through the runner's own cache,
    // empty at the start of the run, so each document is read from the database once.
    const cache = new PageCache(h.db);
    for (const { doc, c } of cells) {
      const t0 = performance.now();
      const pages = (await cache.load([doc.fileId])).get(doc.fileId)!;
      const t1 = performance.now();
      try {
        await engine.answer(c.column, subjectOf(doc, pages));
      } catch {
        // counted in the warm-up summary
      }
      const t2 = performance.now();
      loadMs += t1 - t0;
      answerMs += t2 - t1;
      latencies.push(t2 - t0);
    }
  }
  const runMs = performance.now() - tRun;

  // --- cold: every cell as if its document were new to the engine ----------------------
  // The local engine keeps an index per document (keyed by file id); a file id it has not
  // seen forces the index to be built from the pages, as for the first cell of a document.
  let coldAnswerMs = 0;
  let coldN = 0;
  for (const { doc, c } of cells) {
    const pages = (await repos(h.db).enginePages.loadEnginePages([doc.fileId])).get(doc.fileId)!;
    const fresh = { ...doc, fileId: `${doc.fileId}_cold${coldN++}` };
    const t = performance.now();
    try {
      await engine.answer(c.column, subjectOf(fresh, pages));
    } catch {
      // counted in the warm-up summary
    }
    coldAnswerMs += performance.now() - t;
  }

  // --- references -----------------------------------------------------------------------
  const tLoad = performance.now();
  for (let p = 0; p < passes; p++) {
    for (const { doc } of cells) await repos(h.db).enginePages.loadEnginePages([doc.fileId]);
  }
  const loadOnlyMs = performance.now() - tLoad;
  let bytes = 0;
  const tJson = performance.now();
  for (let p = 0; p < passes; p++) {
    for (const { doc } of cells) bytes += JSON.stringify(preloaded.get(doc.fileId)).length;
  }
  const jsonMs = performance.now() - tJson;

  // --- report ---------------------------------------------------------------------------
  latencies.sort((a, b) => a - b);
  const q = (f: number) => latencies[Math.min(latencies.length - 1, Math.floor(f * latencies.length))]!;
  console.log('\nwarm-up pass (one answer per document and column):');
  console.log(
    `${'output type'.padEnd(12)} ${'SUCCESS'.padStart(7)} ${'ERROR'.padStart(5)} ${'right'.padStart(7)} ms/cell`,
  );
  for (const [type, s] of byType) {
    console.log(
      `${type.padEnd(12)} ${String(s.success).padStart(7)} ${String(s.error).padStart(5)} ` +
        `${(s.scored ? `${s.right}/${s.scored}` : '-').padStart(7)} ${(s.ms / (s.success + s.error)).toFixed(2).padStart(7)}`,
    );
  }
  if (errorTexts.size) {
    console.log(
      `ERROR texts: ${[...errorTexts]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5)
        .map(([t, n]) => `${n}x "${t}"`)
        .join('; ')}`,
    );
  }
  const cps = total / (runMs / 1000);
  console.log(
    `\n${total} cells (${DOCS} documents x ${COLUMNS.length} columns x ${passes} passes, single-document rows of ${PAGES} pages)`,
  );
  console.log(
    `  load pages + answer:   ${ms(runMs).padStart(8)}  ${rate(total, runMs).padStart(6)} cells/s  ` +
      `(p50 ${q(0.5).toFixed(2)} ms, p95 ${q(0.95).toFixed(2)} ms, max ${q(1).toFixed(2)} ms per cell)`,
  );
  console.log(
    `    of which answer:     ${ms(answerMs).padStart(8)}  ${rate(total, answerMs).padStart(6)} cells/s`,
  );
  console.log(
    `    of which load:       ${ms(loadMs).padStart(8)}  ${rate(total, loadMs).padStart(6)} cells/s`,
  );
  console.log(
    `  cold engine.answer (document not seen before, ${coldN} cells): ${ms(coldAnswerMs)}  ` +
      `${rate(coldN, coldAnswerMs)} cells/s; with its page load that is ` +
      `${(coldN / ((coldAnswerMs + (loadOnlyMs * coldN) / total) / 1000)).toFixed(0)} cells/s`,
  );
  console.log(
    `  reference, loadEnginePages per cell, no cache: ${ms(loadOnlyMs)} (${rate(total, loadOnlyMs)} cells/s); ` +
      `a cell costs ${(runMs / loadOnlyMs).toFixed(2)}x loading its pages`,
  );
  console.log(
    `  reference, JSON.stringify of the pages: ${ms(jsonMs)} (${rate(total, jsonMs)} cells/s, ` +
      `${(bytes / total / 1024).toFixed(0)} KiB per document); engine.answer costs ${(answerMs / jsonMs).toFixed(2)}x that`,
  );
  const allError = [...byType.values()].every((s) => s.success === 0);
  if (cps < TARGET_CELLS_PER_SECOND || allError) process.exitCode = 1;
  console.log(
    `\ntarget >= ${TARGET_CELLS_PER_SECOND} cells/s: ${cps >= TARGET_CELLS_PER_SECOND ? 'MET' : 'NOT MET'} ` +
      `(${cps.toFixed(0)} cells/s)${allError ? ' -- but every answer was ERROR, so this times a stub' : ''}`,
  );
  console.log(
    `machine: ${os.availableParallelism()} cores, ${os.cpus()[0]?.model}; database: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}`,
  );
} finally {
  await engine.close?.();
  await h.close();
  rmSync(dataDir, { recursive: true, force: true });
}
