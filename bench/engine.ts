/**
 * `npm run bench:engine`: throughput of the local answer engine on single-document rows.
 * Generates 20 contracts of 10 pages (parties, an effective date, fees, a term, a
 * termination clause, a governing-law clause, a signature page), ingests them through the
 * app and a worker, then answers 20 documents x 8 columns (every output type) 7 times
 * over (1,120 cells), loading each cell's pages from the database with loadEnginePages as
 * a run does. Passes after the first reuse the engine's per-document index, as a run over
 * several columns of the same rows does; a cold pass (every cell on a document the engine
 * has not seen) is reported too. References measured in the same run: loadEnginePages
 * alone, and a trivial pass (JSON.stringify of each cell's pages). Target (issue): >= 200
 * cells/s.
 * `npm run bench:engine -- --verbose` also lists wrong answers of the warm-up pass.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OutputType } from '../src/domain/columns.ts';
import { createLocalEngine } from '../src/engine/local/engine.ts';
import type { EngineAnswer, EngineColumn, EnginePage, EngineSubject } from '../src/engine/types.ts';
import { loadEnginePages } from '../src/infra/repos/engine-pages.ts';
import { makeTextPdf } from '../test/fixtures/pdf.ts';
import { startHarness } from '../test/helpers/harness.ts';
import { type FieldSpec, type LabelRow, scoreValue } from './eval/score.ts';
import { scorerSetting } from './scorer-setting.ts';

const DOCS = 20;
const PAGES = 10;
const LINES_PER_PAGE = 40;
const LINE_CHARS = 88;
const MIN_CELLS = 1000;
const TARGET_CELLS_PER_SECOND = 200;

const STATES =
  'Alabama,Alaska,Arizona,Arkansas,California,Colorado,Connecticut,Delaware,District of Columbia,Florida,Georgia,Hawaii,Idaho,Illinois,Indiana,Iowa,Kansas,Kentucky,Louisiana,Maine,Maryland,Massachusetts,Michigan,Minnesota,Mississippi,Missouri,Montana,Nebraska,Nevada,New Hampshire,New Jersey,New Mexico,New York,North Carolina,North Dakota,Ohio,Oklahoma,Oregon,Pennsylvania,Rhode Island,South Carolina,South Dakota,Tennessee,Texas,Utah,Vermont,Virginia,Washington,West Virginia,Wisconsin,Wyoming'.split(
    ',',
  );
const COMPANIES = [
  'Northwind Logistics, Inc.',
  'Contoso Holdings LLC',
  'Fabrikam Pharmaceuticals Corp.',
  'Tailspin Aerospace, Inc.',
  'Litware Software Group Ltd.',
  'Adventure Works Cycles LLC',
  'Proseware Analytics, Inc.',
  'Wingtip Toys Company',
  'Blue Yonder Airlines, Inc.',
  'Coho Winery LP',
  'Alpine Ski House Corporation',
  'Margie Travel Services LLC',
  'Trey Research, Inc.',
  'Lucerne Publishing Co.',
  'Humongous Insurance Group',
  'Graphic Design Institute LLC',
  'Woodgrove Bank, N.A.',
  'Southridge Video Corporation',
];
const PEOPLE = [
  'Jane A. Whitfield',
  'Robert Okafor',
  'Maria L. Santos',
  'David Chen',
  'Laura Brennan',
  'Samuel Ortiz',
];
const MONTHS = 'January February March April May June July August September October November December'.split(
  ' ',
);
const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five'];
const VOCABULARY = (
  'the agreement supplier customer services deliverables shall within days of receipt written notice party ' +
  'parties confidential information obligations warranty liability damages indemnify reasonable efforts ' +
  'including without limitation any all such other applicable law schedule statement of work acceptance ' +
  'invoice payment records audit personnel subcontractor insurance intellectual property license rights ' +
  'materials performance standards reports meeting representatives dispute resolution consent assignment'
).split(' ');

interface Truth {
  effectiveDate: string;
  amount: number;
  termYears: number;
  state: string;
  convenience: boolean;
  parties: string[];
}

function wrap(text: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > LINE_CHARS) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** One deterministic 10-page contract and the answers it states. */
function makeContract(i: number): { pages: string[][]; truth: Truth } {
  let seed = 1000 + i;
  const rand = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed >>> 16;
  };
  const prose = (sentences: number) => {
    const out: string[] = [];
    for (let s = 0; s < sentences; s++) {
      const words = Array.from({ length: 12 + (rand() % 10) }, () => VOCABULARY[rand() % VOCABULARY.length]!);
      words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
      out.push(`${words.join(' ')}.`);
    }
    return out.join(' ');
  };
  const supplier = COMPANIES[i % COMPANIES.length]!;
  const customer = COMPANIES[(i * 7 + 5) % COMPANIES.length]!;
  const date = new Date(Date.UTC(2015 + (i % 9), (i * 5) % 12, 1 + ((i * 11) % 28)));
  const dateText = `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
  const amount = 10_000 + ((i * 7919) % 500) * 250;
  const amountText = `$${amount.toLocaleString('en-US')}.00`;
  const termYears = 1 + (i % 5);
  const state = STATES[(i * 13 + 4) % STATES.length]!;
  const officeState = STATES[(i * 17 + 9) % STATES.length]!;
  const convenience = i % 2 === 0;
  const signers = [PEOPLE[i % PEOPLE.length]!, PEOPLE[(i + 3) % PEOPLE.length]!];

  const pages: string[][] = [];
  const page = (...paragraphs: string[]) => {
    const lines: string[] = [];
    for (const p of paragraphs) {
      if (lines.length) lines.push('');
      lines.push(...wrap(p));
    }
    while (lines.length < LINES_PER_PAGE - 1) lines.push(...wrap(prose(3)), '');
    pages.push([...lines.slice(0, LINES_PER_PAGE - 1), `Page ${pages.length + 1} of ${PAGES}`]);
  };
  page(
    'MASTER SERVICES AGREEMENT',
    `This Master Services Agreement (the "Agreement") is entered into as of ${dateText} (the "Effective Date") ` +
      `by and between ${supplier}, with offices at ${100 + i} Main Street, Springfield, ${officeState} ` +
      `("Supplier"), and ${customer} ("Customer"). Supplier and Customer are each a "Party".`,
    'RECITALS',
    prose(4),
  );
  page('1. Definitions.', prose(6), '2. Services.', prose(5));
  page(
    '3. Fees and Payment.',
    `In consideration of the Services, Customer shall pay Supplier total fees of ${amountText} (the "Total Fees"), ` +
      'invoiced monthly in arrears and payable within thirty (30) days of receipt of a correct invoice.',
    prose(5),
  );
  page(
    '4. Term.',
    `This Agreement commences on the Effective Date and continues for a period of ${NUMBER_WORDS[termYears]} ` +
      `(${termYears}) year${termYears === 1 ? '' : 's'}, unless terminated earlier as provided below.`,
    prose(5),
  );
  page(
    '5. Termination.',
    convenience
      ? 'Either Party may terminate this Agreement for convenience upon sixty (60) days prior written notice to the other Party.'
      : 'Neither Party may terminate this Agreement for convenience; either Party may terminate it only for a material breach not cured within thirty (30) days.',
    prose(5),
  );
  page('6. Confidentiality.', prose(8));
  page('7. Warranties.', prose(5), '8. Limitation of Liability.', prose(5));
  page(
    '9. Governing Law.',
    `This Agreement shall be governed by and construed in accordance with the laws of the State of ${state}, ` +
      'without regard to its conflict of laws principles.',
    prose(5),
  );
  page('10. Miscellaneous.', prose(8));
  page(
    'IN WITNESS WHEREOF, the Parties have executed this Agreement as of the Effective Date.',
    supplier,
    `By: ____________________  Name: ${signers[0]}  Title: Chief Executive Officer`,
    customer,
    `By: ____________________  Name: ${signers[1]}  Title: General Counsel`,
  );
  return {
    pages,
    truth: {
      effectiveDate: date.toISOString().slice(0, 10),
      amount,
      termYears,
      state,
      convenience,
      parties: [supplier, customer],
    },
  };
}

interface BenchColumn {
  column: EngineColumn;
  /** Scoring spec and expected answer; null for image columns (no truth in these documents). */
  spec: FieldSpec | null;
  expect: (t: Truth) => LabelRow['answer'];
}

const col = (
  outputType: OutputType,
  prompt: string,
  config: EngineColumn['config'] = null,
): EngineColumn => ({
  prompt,
  outputType,
  config,
  isCompositional: false,
  locale: null,
});
const spec = (field: string, c: EngineColumn, match = 'exact'): FieldSpec => ({
  dataset: 'bench',
  field,
  outputType: c.outputType,
  prompt: c.prompt,
  config: c.config,
  match,
});
const COLUMNS: BenchColumn[] = (() => {
  const term = col('text_quote', 'How long is the term of this agreement (e.g. "2 years")?');
  const fees = col('number', 'What are the total fees payable under this agreement, in US dollars?');
  const date = col('date', 'What is the effective date of this agreement? Answer as YYYY-MM-DD.');
  const conv = col('boolean', 'May either party terminate this agreement for convenience?');
  const law = col('categorical', 'Under the law of which US state is this agreement governed?', {
    categories: STATES,
  });
  const parties = col('list_scalar', 'List every party to this agreement (companies or individuals).');
  return [
    { column: term, spec: spec('term', term, '"<number> <unit>"'), expect: (t) => `${t.termYears} years` },
    { column: fees, spec: spec('fees', fees), expect: (t) => t.amount },
    { column: date, spec: spec('effective_date', date), expect: (t) => t.effectiveDate },
    { column: conv, spec: spec('convenience', conv), expect: (t) => t.convenience },
    { column: law, spec: spec('governing_law', law), expect: (t) => t.state },
    { column: parties, spec: spec('parties', parties), expect: (t) => t.parties },
    { column: col('image', 'Show the signature block.'), spec: null, expect: () => null },
    { column: col('image_list', 'Show every table or figure.'), spec: null, expect: () => null },
  ];
})();

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
  const preloaded = await loadEnginePages(
    h.db,
    docs.map((d) => d.fileId),
  );
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
    const pages = (await loadEnginePages(h.db, [doc.fileId])).get(doc.fileId)!;
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

  // --- timed: load pages per cell + answer, as a run does -------------------------------
  let loadMs = 0;
  let answerMs = 0;
  const latencies: number[] = [];
  const tRun = performance.now();
  for (let p = 0; p < passes; p++) {
    for (const { doc, c } of cells) {
      const t0 = performance.now();
      const pages = (await loadEnginePages(h.db, [doc.fileId])).get(doc.fileId)!;
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
    const pages = (await loadEnginePages(h.db, [doc.fileId])).get(doc.fileId)!;
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
    for (const { doc } of cells) await loadEnginePages(h.db, [doc.fileId]);
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
      `${(coldN / ((coldAnswerMs + (loadMs * coldN) / total) / 1000)).toFixed(0)} cells/s`,
  );
  console.log(
    `  reference, loadEnginePages alone: ${ms(loadOnlyMs)} (${rate(total, loadOnlyMs)} cells/s); ` +
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
