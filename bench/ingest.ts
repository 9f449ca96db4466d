/**
 * `npm run bench:ingest`: ingest throughput and memory of a real `npm start` process,
 * against pdftoppm on the same files in the same run. Targets (issue 3): >= 40 pages/s on
 * this 2-core machine, >= 0.7 of pdftoppm's throughput, peak RSS < 400 MB with a
 * 1,000-page PDF, and an upload that does not grow RSS by its own size.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, openAsBlob, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { convertToPdf } from '../src/ingest/office.ts';
import { makeOfficeFile } from '../test/fixtures/office.ts';
import { makeLargeTextPdf } from '../test/fixtures/pdf.ts';
import { createTestDatabase } from '../test/helpers/database.ts';
import { freePort, spawnScript, waitHealthy } from '../test/helpers/process.ts';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'folio-bench-'));
const MB = 1024 * 1024;
const ADMIN = 'bench-admin-token-0123456789';

// On PostgreSQL the bench gets a schema of its own, dropped at the end.
const pg = process.env.DATABASE_URL ? await createTestDatabase({ migrate: false }) : null;
const port = await freePort();
const server = spawnScript('src/start/main.ts', {
  PORT: String(port),
  DATA_DIR: path.join(tmp, 'data'),
  ADMIN_TOKEN: ADMIN,
  // The bench polls fast; with DATABASE_URL set it measures the process without PGlite's own memory.
  RATE_LIMIT_PER_MIN: '0',
  // As `npm start` sets them: fewer glibc arenas (less fragmentation across threads) and a
  // small young generation (V8 sizes it from the machine's RAM otherwise).
  MALLOC_ARENA_MAX: '2',
  NODE_OPTIONS: '--max-semi-space-size=4',
  ...(pg?.url ? { DATABASE_URL: pg.url } : {}),
});
// A first start on an empty data directory (with PGlite, that includes creating the database).
const firstStartMs = await waitHealthy(server, port);
console.log(`first start on an empty data directory: healthy after ${(firstStartMs / 1000).toFixed(1)} s`);
const base = `http://127.0.0.1:${port}`;
const pid = server.proc.pid!;
/** Resident set now and its high-water mark, from the kernel. */
const rss = () => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)![1]);
  return { now: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
};

const admin = (p: string, body: unknown) =>
  fetch(`${base}${p}`, {
    method: 'POST',
    headers: { 'x-admin-token': ADMIN, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then((r) => r.json() as Promise<{ data: Record<string, string> }>);
const ws = (await admin('/admin/workspaces', { name: 'bench', tier: 'gold', credits: 1_000_000 })).data;
const key = (await admin(`/admin/workspaces/${ws.id}/keys`, { level: 'read_write' })).data.key;

async function upload(file: string): Promise<{ id: string; fileId: string }> {
  const form = new FormData();
  form.append('file', await openAsBlob(file), path.basename(file));
  const r = await fetch(`${base}/v2/workspaces/${ws.id}/files`, {
    method: 'POST',
    headers: { 'x-api-key': key },
    body: form,
  });
  return ((await r.json()) as { data: { id: string; fileId: string } }).data;
}

/** Samples the server's resident set while work runs (VmHWM also counts start-up). */
async function sampled<T>(work: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peakMb = rss().now;
  const timer = setInterval(() => {
    peakMb = Math.max(peakMb, rss().now);
  }, 25);
  try {
    return { result: await work(), peakMb };
  } finally {
    clearInterval(timer);
  }
}

async function ingest(file: string): Promise<{ ms: number; pages: number }> {
  const t = performance.now();
  const job = await upload(file);
  for (;;) {
    const j = (await (
      await fetch(`${base}/v2/workspaces/${ws.id}/jobs/${job.id}`, { headers: { 'x-api-key': key } })
    ).json()) as {
      data: { status: string; statusText: string };
    };
    if (j.data.status === 'ERROR') throw new Error(`${file}: ${j.data.statusText}`);
    if (j.data.status === 'SUCCESS') break;
    await new Promise((r) => setTimeout(r, 20));
  }
  const ms = performance.now() - t;
  const f = (await (
    await fetch(`${base}/v2/workspaces/${ws.id}/files/${job.fileId}`, { headers: { 'x-api-key': key } })
  ).json()) as {
    data: { itemCount: number };
  };
  return { ms, pages: f.data.itemCount };
}

function pdftoppm(file: string): number {
  const t = performance.now();
  execFileSync('pdftoppm', ['-r', '150', '-jpeg', file, path.join(tmp, `ppm-${path.basename(file)}`)]);
  return performance.now() - t;
}

const rows: string[] = [];
async function compare(label: string, file: string) {
  const ref = pdftoppm(file);
  const { result: ours, peakMb } = await sampled(() => ingest(file));
  const oursPps = ours.pages / (ours.ms / 1000);
  const refPps = ours.pages / (ref / 1000);
  rows.push(
    `${label.padEnd(30)} ${String(ours.pages).padStart(5)} pages  folio ${oursPps.toFixed(1).padStart(6)} p/s  ` +
      `pdftoppm ${refPps.toFixed(1).padStart(6)} p/s  ratio ${(oursPps / refPps).toFixed(2)}  peak RSS during ingest ${peakMb.toFixed(0)} MB`,
  );
  console.log(rows.at(-1));
}

// Warm-up: worker threads, WASM compile.
const warm = path.join(tmp, 'warm.pdf');
writeFileSync(warm, await makeLargeTextPdf(4));
await ingest(warm);

const text200 = path.join(tmp, 'text-200.pdf');
writeFileSync(text200, await makeLargeTextPdf(200));
await compare('generated text PDF', text200);

// A report of ordinary prose that LibreOffice paginates itself (about 57 pages).
const words =
  'the parties agree that the supplier shall deliver the goods described in schedule one within thirty days of each purchase order and the customer shall pay every invoice'.split(
    ' ',
  );
const paragraphs = Array.from(
  { length: 740 },
  (_, i) => `${i + 1}. ${Array.from({ length: 64 }, (_, j) => words[(i * 7 + j) % words.length]).join(' ')}.`,
);
const docx = await makeOfficeFile('docx', { text: paragraphs });
const office57 = await convertToPdf(docx, {
  outDir: path.join(tmp, 'lo'),
  profileDir: path.join(tmp, 'lo-profile'),
});
await compare('office-made PDF (LibreOffice)', office57);

const text1000 = path.join(tmp, 'text-1000.pdf');
writeFileSync(text1000, await makeLargeTextPdf(1000));
await compare('generated text PDF', text1000);

// Upload memory last: the 99 MB body is junk after its header, and the worker that then tries to
// open it keeps a heap that size until it idles out, which would inflate the figures above.
const bigFile = path.join(tmp, 'big.pdf');
const big = Buffer.alloc(99 * MB, 0x20);
Buffer.from('%PDF-1.4\n').copy(big);
writeFileSync(bigFile, big);
const beforeUpload = rss();
await upload(bigFile);
const afterUpload = rss();
rows.push(
  `upload of 99 MB: server RSS ${beforeUpload.now.toFixed(0)} -> ${afterUpload.now.toFixed(0)} MB, ` +
    `peak ${beforeUpload.peak.toFixed(0)} -> ${afterUpload.peak.toFixed(0)} MB (growth ${(afterUpload.peak - beforeUpload.peak).toFixed(0)} MB)`,
);
console.log(rows.at(-1));

await server.stop('SIGTERM');
await pg?.drop();
console.log(
  `\nmachine: ${os.availableParallelism()} cores, ${os.cpus()[0]?.model}; database: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}`,
);
console.log(rows.join('\n'));
