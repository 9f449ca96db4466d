/**
 * Writes generated documents to a folder to look at:
 *   node train/generate/cli.ts --family invoice --count 3 --seed 1 --out /tmp/gen
 * Each document gives its upload (PDF or JPEG), the source PDF when they differ, and
 * <id>.json with the producer and the questions. `--family all` runs every family; `--check`
 * reads each PDF back and prints any evidence quote or picture box PDFium does not find.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { checkDoc } from './check.ts';
import { FAMILIES } from './families/index.ts';

const { values } = parseArgs({
  options: {
    family: { type: 'string', default: 'all' },
    count: { type: 'string', default: '3' },
    seed: { type: 'string', default: '1' },
    out: { type: 'string', default: '/tmp/gen' },
    check: { type: 'boolean', default: false },
  },
});
const families =
  values.family === 'all' ? FAMILIES : FAMILIES.filter((f) => values.family!.split(',').includes(f.name));
if (!families.length) {
  console.error(`unknown family ${values.family}; known: ${FAMILIES.map((f) => f.name).join(', ')}`);
  process.exit(2);
}
const count = Number(values.count);
const first = Number(values.seed);
await mkdir(values.out!, { recursive: true });
for (const family of families) {
  const started = performance.now();
  for (let seed = first; seed < first + count; seed++) {
    const doc = await family.generate(seed);
    if (values.check) for (const p of await checkDoc(doc)) console.log(`  ${p}`);
    await writeFile(path.join(values.out!, doc.upload.fileName), doc.upload.bytes);
    if (doc.upload.mime !== 'application/pdf')
      await writeFile(path.join(values.out!, `${doc.id}.source.pdf`), doc.pdf);
    await writeFile(
      path.join(values.out!, `${doc.id}.json`),
      `${JSON.stringify({ id: doc.id, family: doc.family, producer: doc.producer, mime: doc.upload.mime, questions: doc.questions }, null, 1)}\n`,
    );
  }
  const ms = (performance.now() - started) / count;
  console.log(`${family.name}: ${count} documents, ${ms.toFixed(1)} ms each`);
}
