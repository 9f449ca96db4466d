/**
 * Leave-one-family-out on generated documents (part of `npm run eval`): for each family,
 * fit the scorer on every other family (plus the labelled dev corpus when present), then
 * answer documents of the left-out family drawn from seeds training never sees. Reports
 * accuracy per family and per question, ECE, citation page accuracy and cells/s; exits 1
 * when the mean is under 0.80, a family under 0.60 or ECE over 0.10.
 *
 *   npm run eval:lofo -- [--train 24] [--test 8] [--family invoice,receipt] [--save DIR]
 *   npm run eval:lofo -- --shard 0/2 & npm run eval:lofo -- --shard 1/2; npm run eval:lofo -- --merge 2
 *
 * --shard i/n runs every n-th family from the i-th (one process per core) and writes its cells to
 * bench/results/eval-lofo.shard-i.json; --merge n reads the n shards and reports as one run.
 *
 * --save writes each family's model to DIR/<family>.json, for `node train/diagnose.ts
 * --family <family> --weights DIR/<family>.json`; --models DIR answers with those saved models
 * instead of fitting (a change to answering only, measured in minutes instead of an hour).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ScorerModel } from '../src/engine/local/model.ts';
import { evaluate } from '../train/evaluate.ts';
import { type Example, examplesOfCorpus, examplesOfGenerated } from '../train/examples.ts';
import { fitModel, prepare, scaffoldModel } from '../train/fit.ts';
import { fixtureExamples } from '../train/fixture-examples.ts';
import { FAMILIES } from '../train/generate/families/index.ts';
import { generatedDocs, generatedExamples, TRAIN_DOCS_PER_FAMILY } from '../train/generated-examples.ts';
import { expectedCalibrationError, fieldFamilyTables, type ScoredCell } from './eval/metrics.ts';

const REPO = path.resolve(import.meta.dirname, '..');
const CORPUS = path.resolve(REPO, '../shared/corpus/extraction');
const { values: args } = parseArgs({
  options: {
    train: { type: 'string', default: String(TRAIN_DOCS_PER_FAMILY) },
    test: { type: 'string', default: '8' },
    family: { type: 'string' },
    verbose: { type: 'boolean', short: 'v', default: false },
    save: { type: 'string' },
    models: { type: 'string' },
    shard: { type: 'string' },
    merge: { type: 'string' },
  },
});
const MEAN_TARGET = 0.8;
const FLOOR_TARGET = 0.6;
const ECE_TARGET = 0.1;

const only = args.family?.split(',');
const [shardAt, shardCount] = (args.shard ?? '0/1').split('/').map(Number) as [number, number];
const shardFile = (i: number) => path.join(REPO, `bench/results/eval-lofo.shard-${i}.json`);
type FamilyResult = {
  family: string;
  accuracy: number;
  n: number;
  ece: number | null;
  pages: number | null;
  cellsPerSecond: number;
};
const all: ScoredCell[] = [];
const perFamily: FamilyResult[] = [];
if (args.merge) {
  for (let i = 0; i < Number(args.merge); i++) {
    const shard = JSON.parse(readFileSync(shardFile(i), 'utf8')) as {
      perFamily: FamilyResult[];
      cells: ScoredCell[];
    };
    perFamily.push(...shard.perFamily);
    all.push(...shard.cells);
  }
  const order = FAMILIES.map((f) => f.name);
  perFamily.sort((a, b) => order.indexOf(a.family) - order.indexOf(b.family));
  for (const f of perFamily)
    console.log(`lofo: ${f.family.padEnd(16)} accuracy ${f.accuracy.toFixed(3)} (n ${f.n})`);
} else {
  await runFamilies();
}
report();

async function runFamilies() {
  const prepared = args.models ? [] : await prepareTraining();
  for (const [k, family] of FAMILIES.entries()) {
    if (only && !only.includes(family.name)) continue;
    if (k % shardCount !== shardAt) continue;
    // --models reads the models a run saved (--save): the answering code is measured again
    // without fitting anew, as long as what training computes is unchanged.
    const model: ScorerModel = args.models
      ? JSON.parse(readFileSync(path.join(args.models, `${family.name}.json`), 'utf8'))
      : fitModel(
          prepared.filter((p) => p.ex.family !== family.name),
          scaffoldModel(),
        ).model;
    if (args.save) {
      mkdirSync(args.save, { recursive: true });
      writeFileSync(path.join(args.save, `${family.name}.json`), JSON.stringify(model));
    }
    const tests: Example[] = [];
    for (const doc of await generatedDocs('test', Number(args.test), [family.name])) {
      // Every phrasing of every question: a rotation over a fixed question list gives each
      // field the same phrasing in every document, so a field's figure was one phrasing's.
      tests.push(...(await examplesOfGenerated(doc, (prompts) => prompts)));
    }
    const r = evaluate(tests, model);
    all.push(...r.cells);
    perFamily.push({
      family: family.name,
      accuracy: r.accuracy,
      n: r.cells.length,
      ece: r.ece,
      pages: r.pageAccuracy,
      cellsPerSecond: r.cellsPerSecond,
    });
    console.log(
      `lofo: ${family.name.padEnd(16)} accuracy ${r.accuracy.toFixed(3)} (n ${r.cells.length})  ECE ${r.ece?.toFixed(3)}  pages ${r.pageAccuracy?.toFixed(3)}  ${r.cellsPerSecond.toFixed(0)} cells/s`,
    );
  }
  if (args.shard) writeFileSync(shardFile(shardAt), `${JSON.stringify({ perFamily, cells: all })}\n`);
}

async function prepareTraining() {
  const t0 = performance.now();
  const trainExamples = await generatedExamples('train', Number(args.train));
  const corpus: Example[] = existsSync(path.join(CORPUS, 'dev/labels.jsonl'))
    ? await examplesOfCorpus(path.join(CORPUS, 'dev'), path.join(CORPUS, 'fields.json'))
    : [];
  const fixtures = await fixtureExamples('train', Number(args.train));
  const prepared = prepare([...trainExamples, ...fixtures, ...corpus], scaffoldModel());
  console.log(
    `lofo: ${trainExamples.length} generated + ${corpus.length} corpus training examples prepared in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
  return prepared;
}

function report() {
  if (args.shard) return;
  if (args.verbose) console.log(fieldFamilyTables(all));
  const mean = perFamily.reduce((s, f) => s + f.accuracy, 0) / (perFamily.length || 1);
  const floor = Math.min(...perFamily.map((f) => f.accuracy));
  const ece = expectedCalibrationError(all) ?? 0;
  const pageCells = all.filter((c) => c.pageHit !== null);
  const pages = pageCells.filter((c) => c.pageHit).length / (pageCells.length || 1);
  const checks = [
    { name: `mean accuracy ${mean.toFixed(3)} >= ${MEAN_TARGET}`, met: mean >= MEAN_TARGET },
    { name: `lowest family ${floor.toFixed(3)} >= ${FLOOR_TARGET}`, met: floor >= FLOOR_TARGET },
    { name: `ECE ${ece.toFixed(3)} <= ${ECE_TARGET}`, met: ece <= ECE_TARGET },
    { name: `citation pages ${pages.toFixed(3)} >= 0.95`, met: pages >= 0.95 },
  ];
  for (const c of checks) console.log(`lofo: ${c.met ? 'MET    ' : 'NOT MET'} ${c.name}`);
  mkdirSync(path.join(REPO, 'bench/results'), { recursive: true });
  if (!only) {
    writeFileSync(
      path.join(REPO, 'bench/results/eval-lofo.json'),
      `${JSON.stringify({ mean, floor, ece, pages, perFamily, byField: fieldFamilyTables(all).split('\n') }, null, 1)}\n`,
    );
  }
  process.exitCode = checks.every((c) => c.met) ? 0 : 1;
}
