/**
 * `npm run bench:upload-session` (the memory flags of `npm start`): a 250 MB file sent through a v1 upload session (gold
 * tier) in 50 MB parts over real HTTP, then ended (assembly, type check, stored original).
 * The server runs in this process, so resident memory covers it; the client sends parts
 * from file-backed blobs and holds none of the bytes. Target: peak RSS growth < 100 MB,
 * i.e. neither a part nor the assembled file is ever held in memory.
 */
import { randomFillSync } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, openAsBlob } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startHarness } from '../test/helpers/harness.ts';

const MB = 1024 * 1024;
const FILE_BYTES = 250 * MB;
const PART_BYTES = 50 * MB;
const TARGET_GROWTH = 100 * MB;

const dir = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-session-'));
const file = path.join(dir, 'big.pdf');
{
  // A PDF header then random bytes: enough for the type check at end, which is all this times.
  const out = createWriteStream(file);
  out.write('%PDF-1.4\n');
  // One reused buffer, refilled between writes: no garbage left to inflate the baseline.
  const buf = Buffer.alloc(MB);
  for (let written = 9; written < FILE_BYTES; written += MB) {
    randomFillSync(buf);
    if (!out.write(buf.subarray(0, Math.min(MB, FILE_BYTES - written)))) await once(out, 'drain');
  }
  await new Promise((resolve) => out.end(resolve));
}

const h = await startHarness();
const ws = await h.workspace({ tier: 'gold' });
const post = async (action: string, fields: [string, string | Blob][]) => {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  const r = await fetch(`${h.baseUrl}/v1/upload-session/${action}`, {
    method: 'POST',
    headers: { 'x-api-key': ws.key },
    body: form,
  });
  const body = (await r.json()) as { data: Record<string, unknown> };
  if (r.status !== 200) throw new Error(`${action}: ${r.status} ${JSON.stringify(body)}`);
  return body.data;
};

global.gc?.();
const baseline = process.memoryUsage().rss;
let peak = baseline;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 20);

const blob = await openAsBlob(file);
const t0 = performance.now();
const { key } = (await post('start', [
  ['fileName', 'big.pdf'],
  ['fileExt', 'pdf'],
  ['fileType', 'application/pdf'],
  ['jobType', 'extract'],
])) as { key: string };
const parts = [];
for (let at = 0, n = 1; at < FILE_BYTES; at += PART_BYTES, n++) {
  parts.push(
    await post('append', [
      ['key', key],
      ['partNumber', String(n)],
      ['file', blob.slice(at, at + PART_BYTES)],
    ]),
  );
}
const t1 = performance.now();
const appendPeak = peak;
const job = await post('end', [
  ['key', key],
  ['parts', JSON.stringify(parts)],
]);
const t2 = performance.now();
clearInterval(sampler);

const growth = peak - baseline;
console.log(
  `upload session of ${FILE_BYTES / MB} MB in ${parts.length} parts: appends ${((t1 - t0) / 1000).toFixed(1)} s ` +
    `(${(FILE_BYTES / MB / ((t1 - t0) / 1000)).toFixed(0)} MB/s), end ${((t2 - t1) / 1000).toFixed(1)} s; job ${job.id}`,
);
console.log(
  `peak RSS growth ${(growth / MB).toFixed(0)} MB (during appends ${((appendPeak - baseline) / MB).toFixed(0)} MB; ` +
    `baseline ${(baseline / MB).toFixed(0)} MB)`,
);
const met = growth < TARGET_GROWTH;
console.log(`target peak RSS growth < ${TARGET_GROWTH / MB} MB: ${met ? 'MET' : 'NOT MET'}`);
await h.close();
await rm(dir, { recursive: true, force: true });
process.exit(met ? 0 : 1);
