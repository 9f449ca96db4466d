/**
 * `npm run eval`: accuracy of the local answer engine on the labelled extraction corpus.
 * With no arguments it evaluates both labelled sets in one run: the dev set
 * (`extraction/dev`, fields from `extraction/fields.json`) and the real invoices
 * (`extraction/invoices`, with its own `fields.json`). Every set is ingested through the
 * real pipeline (app + worker on one fresh private database); the engine answers one
 * cell per label row (single-document rows); values are scored by each field's matching
 * rule, citations by page and quote. Per set it prints tables per field, per output type
 * and per dataset (family), overall accuracy, ECE, citation page accuracy and engine
 * cells/s, and writes the same to bench/results/eval-<set>.json. Then the issue 13
 * targets, MET or NOT MET (exit 1 when one is missed).
 *
 *   npm run eval                                 # dev + invoices
 *   npm run eval -- --only jurisdiction --verbose
 *   npm run eval -- --doc deepform --only gross_amount,flight_to
 *   npm run eval -- --docs DIR [--labels FILE] [--fields FILE] [--out FILE]   # one set
 *
 * --docs defaults its labels to DIR/labels.jsonl and its fields to DIR/fields.json, else
 * DIR/../fields.json. Only documents a label row names and the service ingests (pdf,
 * docx, pptx, xlsx, jpg, jpeg, png, webp) are uploaded. With --only or --doc only the
 * documents needed are ingested, sets left without rows are skipped and the JSON goes to
 * eval-<set>-filtered.json (git-ignored), so the tracked full-run files stay put.
 * --oracle answers from the labels instead of the engine (a self-test of the scoring;
 * see bench/eval/oracle.ts; it must score 100%), written to eval-<set>-oracle.json
 * (git-ignored). --out FILE names the output of a one-set run; with both sets it becomes
 * FILE-<set>.json.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createLocalEngine } from '../src/engine/local/engine.ts';
import type {
  AnswerEngine,
  EngineAnswer,
  EngineColumn,
  EnginePage,
  EngineSubject,
} from '../src/engine/types.ts';
import { repos } from '../src/infra/repos/index.ts';
import { type Harness, startHarness, type TestWorkspace } from '../test/helpers/harness.ts';
import { CELL_LEGEND, fieldFamilyTables } from './eval/metrics.ts';
import { createOracleEngine } from './eval/oracle.ts';
import { groupBy, LEGEND, type RowResult, stats, table, toCell } from './eval/report.ts';
import {
  answerValue,
  evidencePages,
  type FieldSpec,
  type LabelRow,
  ruleFor,
  scoreCitations,
  scoreValue,
} from './eval/score.ts';
import { checkTargets, describeCheck, type TargetCheck } from './eval/targets.ts';
import { scorerSetting } from './scorer-setting.ts';

const REPO = path.resolve(import.meta.dirname, '..');
const CORPUS = path.resolve(REPO, '../shared/corpus/extraction');
/** File types the service ingests (by extension; anything else in a docs folder is not a document). */
const INGESTIBLE = new Set(['.pdf', '.docx', '.pptx', '.xlsx', '.jpg', '.jpeg', '.png', '.webp']);

const { values: args } = parseArgs({
  options: {
    docs: { type: 'string' },
    labels: { type: 'string' },
    fields: { type: 'string' },
    only: { type: 'string' },
    doc: { type: 'string' },
    out: { type: 'string' },
    verbose: { type: 'boolean', short: 'v', default: false },
    oracle: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (args.help) {
  console.log(
    'npm run eval -- [--docs DIR [--labels FILE] [--fields FILE]] [--only FIELD[,FIELD]] [--doc SUBSTRING] [--out FILE] [--verbose] [--oracle]\n' +
      'no --docs/--labels/--fields: both labelled sets (extraction/dev and extraction/invoices)',
  );
  process.exit(0);
}

interface SetInput {
  name: string;
  docsDir: string;
  labelsFile: string;
  fieldsFile: string;
}

function setInput(docs: string, labels?: string, fields?: string): SetInput {
  const docsDir = path.resolve(docs);
  const ownFields = path.join(docsDir, 'fields.json');
  return {
    name: path.basename(docsDir),
    docsDir,
    labelsFile: path.resolve(labels ?? path.join(docsDir, 'labels.jsonl')),
    fieldsFile: path.resolve(
      fields ?? (existsSync(ownFields) ? ownFields : path.join(docsDir, '..', 'fields.json')),
    ),
  };
}

const oneSet = args.docs !== undefined || args.labels !== undefined || args.fields !== undefined;
const inputs: SetInput[] = oneSet
  ? [setInput(args.docs ?? path.join(CORPUS, 'dev'), args.labels, args.fields)]
  : [setInput(path.join(CORPUS, 'dev')), setInput(path.join(CORPUS, 'invoices'))];
const filtered = args.only !== undefined || args.doc !== undefined;
const suffix = `${args.oracle ? '-oracle' : ''}${filtered ? '-filtered' : ''}`;
const onlyFields = args.only
  ?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);

function outFileFor(name: string): string {
  if (args.out === undefined) return path.join(REPO, 'bench/results', `eval-${name}${suffix}.json`);
  const out = path.resolve(args.out);
  if (inputs.length === 1) return out;
  return `${out.endsWith('.json') ? out.slice(0, -5) : out}-${name}.json`;
}

/** A set with its label rows (after --only/--doc) and the documents to upload. */
interface PreparedSet extends SetInput {
  specOf: Map<string, FieldSpec>;
  labels: LabelRow[];
  /** Uploadable documents by basename. */
  inDir: Map<string, string>;
  docs: string[];
  outFile: string;
}

function prepare(input: SetInput): PreparedSet | null {
  const specs = JSON.parse(readFileSync(input.fieldsFile, 'utf8')) as FieldSpec[];
  const specOf = new Map(specs.map((s) => [`${s.dataset}/${s.field}`, s]));
  const allLabels = readFileSync(input.labelsFile, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as LabelRow);
  const labels = allLabels.filter(
    (l) =>
      (!onlyFields || onlyFields.includes(l.field) || onlyFields.includes(`${l.dataset}/${l.field}`)) &&
      (!args.doc || l.file.includes(args.doc)),
  );
  if (labels.length === 0) {
    console.log(
      `${input.name}: no label rows left after --only ${args.only ?? '-'} --doc ${args.doc ?? '-'}`,
    );
    return null;
  }
  for (const l of labels) {
    if (!specOf.has(`${l.dataset}/${l.field}`))
      throw new Error(`${l.dataset}/${l.field} is not in ${input.fieldsFile}`);
  }
  // Label `file` paths are relative to the extraction folder (`dev/x.pdf`): matched by basename.
  // Only documents: a docs folder may also hold fields.json, sources.json, labels.jsonl.
  const inDir = new Map(
    readdirSync(input.docsDir)
      .filter((f) => !f.startsWith('.') && INGESTIBLE.has(path.extname(f).toLowerCase()))
      .filter((f) => statSync(path.join(input.docsDir, f)).isFile())
      .map((f) => [f, path.join(input.docsDir, f)]),
  );
  const named = [...new Set(labels.map((l) => path.basename(l.file)))];
  const missing = named.filter((f) => !inDir.has(f));
  if (missing.length)
    console.warn(
      `warning: ${missing.length} labelled document(s) not in ${input.docsDir} (or not an ingestible type), ` +
        `their rows are skipped: ${missing.join(', ')}`,
    );
  const labelled = new Set(allLabels.map((l) => path.basename(l.file)));
  const unlabelled = [...inDir.keys()].filter((f) => !labelled.has(f));
  if (unlabelled.length)
    console.warn(
      `note: ${unlabelled.length} document(s) without labels, not uploaded: ${unlabelled.join(', ')}`,
    );
  return {
    ...input,
    specOf,
    labels,
    inDir,
    docs: named.filter((f) => inDir.has(f)).sort(),
    outFile: outFileFor(input.name),
  };
}

interface SetOutcome {
  name: string;
  accuracy: number;
  right: number;
  n: number;
  ece: number | null;
  pageAccuracy: number | null;
  pageN: number;
  cellsPerSecond: number | null;
  checks: TargetCheck[];
}

async function evaluateSet(
  set: PreparedSet,
  h: Harness,
  ws: TestWorkspace,
  localEngine: AnswerEngine,
): Promise<SetOutcome> {
  const { specOf, labels, inDir, docs } = set;
  const labelByCell = new Map(
    labels.map((l) => [`${path.basename(l.file)}\n${specOf.get(`${l.dataset}/${l.field}`)!.prompt}`, l]),
  );
  const engine = args.oracle
    ? createOracleEngine((column, fileName) => labelByCell.get(`${fileName}\n${column.prompt}`)!)
    : localEngine;
  console.log(
    `\n=== ${set.name}: ${labels.length} label rows, ${docs.length} documents from ${set.docsDir}; ` +
      `fields ${set.fieldsFile}; engine "${engine.name}"; ingesting ...`,
  );

  // --- ingest ---------------------------------------------------------------------------

  const ingestStart = performance.now();
  const jobs: { doc: string; jobId: string; fileId: string }[] = [];
  for (const doc of docs) {
    const r = await h.upload(ws, {
      file: { data: new Uint8Array(readFileSync(inDir.get(doc)!)), name: doc },
    });
    const body = (await r.json()) as { data?: { id: string; fileId: string }; error?: unknown };
    if (r.status !== 200 || !body.data) throw new Error(`upload ${doc}: ${r.status} ${JSON.stringify(body)}`);
    jobs.push({ doc, jobId: body.data.id, fileId: body.data.fileId });
  }
  const finished = await Promise.all(
    jobs.map(async (j) => ({ ...j, job: await h.waitJob(ws, j.jobId, 30 * 60_000) })),
  );
  const ingestMs = performance.now() - ingestStart;
  const fileOf = new Map<string, string>();
  const ingestErrors: Record<string, string> = {};
  for (const f of finished) {
    if (f.job.status === 'SUCCESS') fileOf.set(f.doc, f.fileId);
    else ingestErrors[f.doc] = String(f.job.statusText);
  }
  const pagesByFile = await repos(h.db).enginePages.loadEnginePages([...fileOf.values()]);
  let pageCount = 0;
  let ocrPages = 0;
  for (const pages of pagesByFile.values()) {
    pageCount += pages.length;
    ocrPages += pages.filter((p) => p.ocr).length;
  }
  console.log(
    `ingest: ${fileOf.size}/${docs.length} documents, ${pageCount} pages (${ocrPages} OCR) in ${(ingestMs / 1000).toFixed(1)} s` +
      (Object.keys(ingestErrors).length ? `; FAILED: ${JSON.stringify(ingestErrors)}` : ''),
  );

  // --- answer and score -----------------------------------------------------------------

  const results: RowResult[] = [];
  // Engine time: around engine.answer only (not ingest, page loading or scoring).
  let engineMs = 0;
  let cells = 0;
  const wrongLines: string[] = [];
  for (const label of labels) {
    const doc = path.basename(label.file);
    if (!inDir.has(doc)) continue;
    const spec = specOf.get(`${label.dataset}/${label.field}`)!;
    const rule = ruleFor(spec);
    const fileId = fileOf.get(doc);
    let answer: EngineAnswer;
    let ms = 0;
    let pages: EnginePage[] = [];
    if (!fileId) {
      answer = { status: 'ERROR', statusText: `ingest failed: ${ingestErrors[doc]}`, facts: [] };
    } else {
      pages = pagesByFile.get(fileId) ?? [];
      const column: EngineColumn = {
        prompt: spec.prompt,
        outputType: spec.outputType,
        config: spec.config && typeof spec.config === 'object' ? spec.config : null,
        isCompositional: false,
        locale: null,
      };
      const subject: EngineSubject = {
        kind: 'file',
        documents: [
          { fileId, fileName: doc, pages, isPrimary: true, role: null, effectiveAt: null, sortOrder: 0 },
        ],
      };
      const t = performance.now();
      try {
        answer = await engine.answer(column, subject);
      } catch (err) {
        answer = { status: 'ERROR', statusText: `threw: ${(err as Error).message}`, facts: [] };
      }
      ms = performance.now() - t;
      engineMs += ms;
      cells++;
    }
    const value = scoreValue(spec, label.answer, answer);
    const labelIsNull = label.answer === null || (Array.isArray(label.answer) && label.answer.length === 0);
    const ev = evidencePages(label, pages);
    const citations = scoreCitations(
      answer,
      pagesByFile,
      ev.size ? ev : null,
      fileId ?? '',
      value.right,
      labelIsNull,
    );
    const got = answerValue(answer, spec).value ?? null;
    const row: RowResult = {
      doc,
      dataset: label.dataset,
      field: label.field,
      type: spec.outputType,
      rule,
      expected: label.answer,
      got,
      status: fileId ? answer.status : 'INGEST_ERROR',
      statusText: answer.status === 'ERROR' ? answer.statusText : null,
      right: value.right,
      f1: value.f1,
      confidence: answer.status === 'SUCCESS' ? answer.confidence : null,
      expectedNorm: value.expectedNorm,
      gotNorm: value.gotNorm,
      shape: value.shape,
      citations,
      cited:
        answer.status === 'SUCCESS'
          ? (answer.citations ?? []).map((c) => ({ page: c.page, quote: c.quote }))
          : [],
      ms: Math.round(ms * 100) / 100,
    };
    results.push(row);
    const citeTrouble = row.citations.quoteFound < row.citations.count || row.citations.pageHit === false;
    if (args.verbose && (!row.right || row.shape.length > 0 || citeTrouble))
      wrongLines.push(describe(row, ev));
  }

  // --- report ---------------------------------------------------------------------------

  if (args.verbose && wrongLines.length) {
    console.log(
      `\nwrong answers, bad shapes, bad citations (${wrongLines.length}):\n${wrongLines.join('\n')}`,
    );
  }
  const byField = groupBy(results, (r) => `${r.dataset}/${r.field}`);
  const byType = groupBy(results, (r) => r.type);
  const byDataset = groupBy(results, (r) => r.dataset);
  const overall = stats(results);
  console.log(`\n${fieldFamilyTables(results.map(toCell))}\n`);
  console.log(CELL_LEGEND);
  console.log(`\ndetails by field:\n${table('field', byField, results)}\n`);
  console.log(`${table('output type', byType)}\n`);
  console.log(LEGEND);
  const cellsPerSecond = engineMs > 0 ? cells / (engineMs / 1000) : null;
  console.log(
    `\n${set.name}: accuracy ${(overall.accuracy * 100).toFixed(1)}% (${overall.right}/${overall.n})` +
      (overall.meanF1 !== null ? `, list mean F1 ${overall.meanF1.toFixed(3)}` : '') +
      `, ECE ${overall.ece === null ? '-' : overall.ece.toFixed(3)}` +
      `, citation pages ${overall.pageAccuracy === null ? '-' : `${(overall.pageAccuracy * 100).toFixed(1)}%`} (${overall.pageN})` +
      `, citation quotes found ${overall.quoteFoundRate === null ? '-' : `${(overall.quoteFoundRate * 100).toFixed(1)}%`}` +
      `; ERROR answers ${overall.errors}` +
      (overall.ingestErrors ? `, rows of documents that failed ingest ${overall.ingestErrors}` : ''),
  );
  console.log(
    `engine: ${cells} cells in ${(engineMs / 1000).toFixed(2)} s of engine.answer time = ` +
      `${cellsPerSecond === null ? '-' : cellsPerSecond.toFixed(1)} cells/s; ` +
      `ingest: ${(ingestMs / 1000).toFixed(1)} s for ${fileOf.size} documents, ${pageCount} pages`,
  );

  // Targets are judged on a whole labelled set (a filtered run says nothing of them).
  const checks = !filtered && !args.oracle ? checkTargets(set.name, overall) : [];
  const report = {
    dataset: set.name,
    generatedAt: new Date().toISOString(),
    engine: engine.name,
    inputs: {
      docs: set.docsDir,
      labels: set.labelsFile,
      fields: set.fieldsFile,
      only: args.only ?? null,
      doc: args.doc ?? null,
    },
    ingest: {
      documents: docs.length,
      ingested: fileOf.size,
      pages: pageCount,
      ocrPages,
      ms: Math.round(ingestMs),
      errors: ingestErrors,
    },
    engineTime: {
      cells,
      ms: Math.round(engineMs * 100) / 100,
      cellsPerSecond: cellsPerSecond === null ? null : Math.round(cellsPerSecond * 10) / 10,
    },
    overall,
    targets: checks,
    byField: Object.fromEntries(
      [...byField].map(([k, rows]) => [k, { rule: rows[0]!.rule, ...stats(rows) }]),
    ),
    byType: Object.fromEntries([...byType].map(([k, rows]) => [k, stats(rows)])),
    byDataset: Object.fromEntries([...byDataset].map(([k, rows]) => [k, stats(rows)])),
    rows: results,
  };
  mkdirSync(path.dirname(set.outFile), { recursive: true });
  writeFileSync(set.outFile, `${JSON.stringify(report, null, 2)}\n`);
  // Results under bench/ are linted by `npm run check`: leave them as the formatter would.
  if (set.outFile.startsWith(`${REPO}${path.sep}`)) {
    try {
      execFileSync(path.join(REPO, 'node_modules/.bin/biome'), ['format', '--write', set.outFile], {
        stdio: 'ignore',
      });
    } catch {
      // formatting is cosmetic
    }
  }
  console.log(`wrote ${path.relative(process.cwd(), set.outFile)}`);
  return {
    name: set.name,
    accuracy: overall.accuracy,
    right: overall.right,
    n: overall.n,
    ece: overall.ece,
    pageAccuracy: overall.pageAccuracy,
    pageN: overall.pageN,
    cellsPerSecond,
    checks,
  };
}

// --- main ---------------------------------------------------------------------------------

const sets = inputs.map(prepare).filter((s): s is PreparedSet => s !== null);
if (sets.length === 0) {
  console.error('no label rows to evaluate');
  process.exit(1);
}
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'folio-eval-'));
const h = await startHarness({ DATA_DIR: dataDir }, { worker: true });
const localEngine = createLocalEngine(scorerSetting());
const outcomes: SetOutcome[] = [];
try {
  const ws = await h.workspace({ tier: 'gold', credits: 100_000_000, spendCap: null });
  for (const set of sets) outcomes.push(await evaluateSet(set, h, ws, localEngine));
} finally {
  await localEngine.close?.();
  await h.close();
  rmSync(dataDir, { recursive: true, force: true });
}

const f3 = (x: number | null) => (x === null ? '-' : x.toFixed(3));
console.log('\n=== summary');
for (const o of outcomes) {
  console.log(
    `${o.name.padEnd(10)} accuracy ${f3(o.accuracy)} (${o.right}/${o.n})  ECE ${f3(o.ece)}  ` +
      `citation pages ${f3(o.pageAccuracy)} (${o.pageN})  ` +
      `${o.cellsPerSecond === null ? '-' : o.cellsPerSecond.toFixed(1)} cells/s`,
  );
}
if (args.oracle) {
  // The self-test: answering with the labels must score every row right.
  for (const o of outcomes) {
    const ok = o.right === o.n;
    console.log(`oracle self-test ${o.name}: accuracy 100% (${o.right}/${o.n}): ${ok ? 'MET' : 'NOT MET'}`);
    if (!ok) process.exitCode = 1;
  }
} else if (!filtered) {
  const checks = outcomes.flatMap((o) => o.checks);
  for (const c of checks) console.log(describeCheck(c));
  if (checks.some((c) => !c.met)) process.exitCode = 1;
} else {
  console.log('(a filtered run: targets not judged)');
}

function describe(r: RowResult, evidence: Set<number>): string {
  const short = (s: string, n = 160) => (s.length > n ? `${s.slice(0, n)}…` : s);
  const got = r.status === 'SUCCESS' ? JSON.stringify(r.got) : `${r.status}: ${r.statusText}`;
  const quote = r.cited.length
    ? r.cited
        .slice(0, 2)
        .map((c) => `p${c.page} "${short(c.quote.replace(/\s+/g, ' '), 100)}"`)
        .join(' ; ')
    : '-';
  return [
    `${!r.right ? 'WRONG' : r.shape.length ? 'SHAPE' : 'CITE '} ${r.doc.replace(/\.pdf$/, '')}  ${r.field} (${r.rule})`,
    `   expected ${JSON.stringify(r.expected)}${r.expectedNorm !== JSON.stringify(r.expected) ? ` [${r.expectedNorm}]` : ''}` +
      `  evidence p${[...evidence].sort((a, b) => a - b).join(',') || '-'}`,
    `   got      ${short(got)}${r.status === 'SUCCESS' ? ` [${short(r.gotNorm)}]` : ''}` +
      `  conf ${r.confidence === null ? '-' : r.confidence.toFixed(2)}` +
      (r.f1 !== null ? `  F1 ${r.f1.toFixed(2)}` : ''),
    ...(r.status === 'SUCCESS'
      ? [
          `   quote    ${quote}` +
            (r.citations.count ? `  (found ${r.citations.quoteFound}/${r.citations.count})` : '') +
            (r.citations.pageHit === false ? '  (no citation on an evidence page)' : ''),
        ]
      : []),
    ...(r.shape.length ? [`   shape    ${r.shape.join('; ')}`] : []),
  ].join('\n');
}
