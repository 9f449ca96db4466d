/**
 * Why the scorer put the top candidate above the right one: for each missed question of a
 * generated family, the features where the two differ.
 *
 *   node train/explain.ts --family form_boxes --field applicant [--weights FILE] [--docs 2]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { examine, queryFor } from '../src/engine/local/answer-document.ts';
import { FEATURES } from '../src/engine/local/features.ts';
import { checkModel, defaultModel, type ScorerModel, scoreOf } from '../src/engine/local/model.ts';
import { examplesOfGenerated } from './examples.ts';
import { candidateMatches } from './fit.ts';
import { generatedDocs } from './generated-examples.ts';

const { values: args } = parseArgs({
  options: {
    family: { type: 'string' },
    field: { type: 'string' },
    docs: { type: 'string', default: '2' },
    weights: { type: 'string' },
  },
});
const model = args.weights ? (JSON.parse(readFileSync(args.weights, 'utf8')) as ScorerModel) : defaultModel();
checkModel(model);
for (const doc of await generatedDocs('test', Number(args.docs), [args.family!])) {
  for (const ex of await examplesOfGenerated(doc, (prompts) => prompts)) {
    if (ex.key !== args.field) continue;
    const e = examine(ex.column, queryFor(ex.column), ex.doc, model);
    const right = e.scored.findIndex((s) => candidateMatches(e.group, s.cand, ex));
    console.log(`\n${ex.docId} "${ex.column.prompt}" gold=${JSON.stringify(ex.gold)} rank=${right}`);
    if (right <= 0) continue;
    const top = e.scored[0]!;
    const ok = e.scored[right]!;
    console.log(
      `  top   ${JSON.stringify(top.cand.text.slice(0, 50))} [${top.cand.source}] p=${top.p.toFixed(2)}`,
    );
    console.log(
      `  right ${JSON.stringify(ok.cand.text.slice(0, 50))} [${ok.cand.source}] p=${ok.p.toFixed(2)}`,
    );
    const diffs = FEATURES.map((f, i) => ({ f, a: top.x[i]!, b: ok.x[i]! })).filter((d) => d.a !== d.b);
    console.log(`  ${diffs.map((d) => `${d.f}=${d.a.toFixed(2)}/${d.b.toFixed(2)}`).join('  ')}`);
    // Which differences carry the gap: the right candidate's rank score with one feature set to the top's value.
    const m = model.groups[e.group];
    const base = scoreOf(m, m.ranker, ok.x).rank;
    const effects = diffs
      .map((d) => {
        const x = Float64Array.from(ok.x);
        x[FEATURES.indexOf(d.f)] = d.a;
        return { f: d.f, delta: scoreOf(m, m.ranker, x).rank - base };
      })
      .sort((a, b) => Math.abs(b.delta) - Math.abs(a.delta))
      .slice(0, 10);
    console.log(
      `  effects on right: ${effects.map((d) => `${d.f} ${d.delta >= 0 ? '+' : ''}${d.delta.toFixed(2)}`).join('  ')}`,
    );
  }
}
