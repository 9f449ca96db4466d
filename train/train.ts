/**
 * `npm run train`: fits the local engine's scorer and writes src/engine/local/model/weights.json.
 * Data: documents of every generated family (fixed seeds) plus the labelled dev corpus when
 * present. Reproducible: same code and data, same file.
 *
 *   npm run train                     # 24 documents per family
 *   npm run train -- --docs 8 --out /tmp/weights.json
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type Example, examplesOfCorpus } from './examples.ts';
import { fitModel, prepare, scaffoldModel } from './fit.ts';
import { generatedExamples, TRAIN_DOCS_PER_FAMILY } from './generated-examples.ts';

const REPO = path.resolve(import.meta.dirname, '..');
const CORPUS = path.resolve(REPO, '../shared/corpus/extraction');

const { values: args } = parseArgs({
  options: {
    docs: { type: 'string', default: String(TRAIN_DOCS_PER_FAMILY) },
    out: { type: 'string' },
    'no-corpus': { type: 'boolean', default: false },
    'no-generated': { type: 'boolean', default: false },
  },
});
const out = path.resolve(args.out ?? path.join(REPO, 'src/engine/local/model/weights.json'));
const started = performance.now();
const examples: Example[] = [];
if (!args['no-generated']) examples.push(...(await generatedExamples('train', Number(args.docs))));
if (!args['no-generated']) {
  const { fixtureExamples } = await import('./fixture-examples.ts');
  examples.push(...(await fixtureExamples('train', Number(args.docs))));
}
const genCount = examples.length;
const devDir = path.join(CORPUS, 'dev');
if (!args['no-corpus'] && existsSync(path.join(devDir, 'labels.jsonl'))) {
  examples.push(...(await examplesOfCorpus(devDir, path.join(CORPUS, 'fields.json'))));
}
console.log(`train: ${genCount} generated and ${examples.length - genCount} corpus examples`);
const scaffold = scaffoldModel();
const prepared = prepare(examples, scaffold);
const prepSeconds = (performance.now() - started) / 1000;
const { model, report } = fitModel(prepared, scaffold);
model.trainedOn = {
  generatedExamples: genCount,
  corpusExamples: examples.length - genCount,
  docsPerFamily: Number(args.docs),
  rows: report.rows,
};
writeFileSync(out, `${JSON.stringify(model)}\n`);
const thresholds = Object.fromEntries(Object.entries(model.groups).map(([g, m]) => [g, m.threshold]));
console.log(
  `train: features ${prepSeconds.toFixed(1)} s, fit ${report.seconds.toFixed(1)} s; rows ${JSON.stringify(report.rows)}`,
);
console.log(`train: thresholds ${JSON.stringify(thresholds)} → ${path.relative(REPO, out)}`);
