/**
 * Where the local engine loses answers on a labelled corpus set: per field, how often a
 * candidate holding the true answer exists at all (recall), how often the scorer ranks one
 * first, and how often the final answer is right. Tells candidate generation problems from
 * ranking problems.
 *
 *   node train/diagnose.ts [--set dev|invoices] [--field NAME] [--verbose]
 *   node train/diagnose.ts --family receipt,letter [--docs 8] [--weights FILE]   # generated, test seeds
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { examine, queryFor } from '../src/engine/local/answer-document.ts';
import { answerLocally } from '../src/engine/local/engine.ts';
import { checkModel, defaultModel, type ScorerModel } from '../src/engine/local/model.ts';
import { evaluate } from './evaluate.ts';
import { type Example, examplesOfCorpus, examplesOfGenerated } from './examples.ts';
import { candidateMatches } from './fit.ts';
import { generatedDocs } from './generated-examples.ts';

const CORPUS = path.resolve(import.meta.dirname, '../../shared/corpus/extraction');
const { values: args } = parseArgs({
  options: {
    set: { type: 'string', default: 'dev' },
    field: { type: 'string' },
    family: { type: 'string' },
    docs: { type: 'string', default: '8' },
    weights: { type: 'string' },
    verbose: { type: 'boolean', short: 'v', default: false },
  },
});
let examples: Example[] = [];
if (args.family) {
  for (const doc of await generatedDocs('test', Number(args.docs), args.family.split(','))) {
    examples.push(...(await examplesOfGenerated(doc, (prompts) => prompts)));
  }
} else {
  const dir = path.join(CORPUS, args.set!);
  const fields = args.set === 'dev' ? path.join(CORPUS, 'fields.json') : path.join(dir, 'fields.json');
  examples = await examplesOfCorpus(dir, fields);
}
if (args.field) examples = examples.filter((e) => e.key === args.field);
const model = args.weights ? (JSON.parse(readFileSync(args.weights, 'utf8')) as ScorerModel) : defaultModel();
checkModel(model);
const { cells } = evaluate(examples, model);
const answerOf = (ex: Example) => {
  const a = answerLocally(ex.column, { kind: 'file', documents: [ex.doc] }, model);
  if (a.status !== 'SUCCESS') return a.status;
  return Array.isArray(a.value) ? a.value : a.value.value;
};
const rows = new Map<string, { n: number; nulls: number; recall: number; top1: number; right: number }>();
examples.forEach((ex, i) => {
  const e = examine(ex.column, queryFor(ex.column), ex.doc, model);
  const pos = e.scored.map((s) => candidateMatches(e.group, s.cand, ex));
  const key = `${ex.family}/${ex.key}`;
  const r = rows.get(key) ?? { n: 0, nulls: 0, recall: 0, top1: 0, right: 0 };
  const isNull = ex.gold === null || (Array.isArray(ex.gold) && ex.gold.length === 0);
  r.n++;
  if (isNull) r.nulls++;
  if (pos.some(Boolean)) r.recall++;
  if (pos[0]) r.top1++;
  if (cells[i]!.right) r.right++;
  rows.set(key, r);
  if (args.verbose && !cells[i]!.right) {
    const rank = pos.indexOf(true);
    console.log(
      `${key} ${ex.docId} ${JSON.stringify(ex.column.prompt)} gold=${JSON.stringify(ex.gold)} rank=${rank} top=${e.scored
        .slice(0, 3)
        .map((s) => `${JSON.stringify(String(s.cand.value).slice(0, 40))}@${s.p.toFixed(2)}`)
        .join(' ')} answer=${String(JSON.stringify(answerOf(ex))).slice(0, 160)}`,
    );
  }
});
const tot = { n: 0, nulls: 0, recall: 0, top1: 0, right: 0 };
console.log('field'.padEnd(36), 'n', 'null', 'recall', 'top1', 'right');
for (const [k, r] of [...rows].sort()) {
  console.log(k.padEnd(36), r.n, r.nulls, r.recall, r.top1, r.right);
  for (const f of Object.keys(tot) as (keyof typeof tot)[]) tot[f] += r[f];
}
console.log('total'.padEnd(36), tot.n, tot.nulls, tot.recall, tot.top1, tot.right);
