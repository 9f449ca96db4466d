import { type Example, examplesOfGenerated } from './examples.ts';
import { FAMILIES } from './generate/families/index.ts';
import { hashSeed } from './generate/rng.ts';
import type { GeneratedDoc } from './generate/types.ts';

/**
 * Training documents per family: the shipped model's (`npm run train`) and each left-out
 * family's model in `npm run eval:lofo`, so the figure measures the recipe that ships.
 */
export const TRAIN_DOCS_PER_FAMILY = 24;

/** Documents of each family for one purpose ("train", "test"): seeds never shared between purposes. */
export async function generatedDocs(
  purpose: string,
  perFamily: number,
  only?: string[],
): Promise<GeneratedDoc[]> {
  const docs: GeneratedDoc[] = [];
  for (const family of FAMILIES) {
    if (only && !only.includes(family.name)) continue;
    for (let i = 0; i < perFamily; i++) docs.push(await family.generate(hashSeed(purpose, family.name, i)));
  }
  return docs;
}

/** Two of each question's phrasings per document, rotating so every phrasing is used. */
export async function generatedExamples(
  purpose: string,
  perFamily: number,
  only?: string[],
): Promise<Example[]> {
  const out: Example[] = [];
  let turn = 0;
  for (const doc of await generatedDocs(purpose, perFamily, only)) {
    out.push(
      ...(await examplesOfGenerated(doc, (prompts) => {
        turn++;
        return [prompts[turn % prompts.length]!, prompts[(turn + 1) % prompts.length]!];
      })),
    );
  }
  return out;
}
