/**
 * `npm run bench:load`: is the API still responsive while the embedded default ingests?
 * (issue 15 item 8, finding F9). The app runs as `npm start` runs it: PGlite in DATA_DIR, the
 * API and its worker in one process, default settings. 20 clients upload real documents of
 * ../shared/corpus (the dev and invoice sets: born-digital and scanned PDFs, photos; OCR runs
 * for many), 5 each (100 uploads, back to back per client), while one client reads a run
 * (GET …/runs/:runId) every 50 ms. Without the corpus, generated 3 to 6 page contracts.
 * Targets: GET run p95 < 200 ms and POST /files p95 < 2 s under that load. Reference measured
 * in the same run: the same GET with the service idle; the ratio is what the load adds.
 * With DATABASE_URL set, the same on PostgreSQL (for comparison; the target is embedded).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { contractPdf, makeContract, makeRng } from '../test/fixtures/contract.ts';
import { startInProcessApp } from './in-process-app.ts';

const UPLOADERS = Number(process.env.UPLOADERS ?? 20);
const PER_UPLOADER = Number(process.env.PER_UPLOADER ?? 5);
const PROBE_EVERY_MS = 50;
const TARGET_GET_P95 = 200;
const TARGET_POST_P95 = 2000;

const ms = (t: number) => `${t.toFixed(0)} ms`;
const sleep = (t: number) => new Promise((r) => setTimeout(r, t));
function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(s.length * q))] ?? 0;
  return { n: s.length, p50: at(0.5), p95: at(0.95), max: s[s.length - 1] ?? 0 };
}
const show = (x: ReturnType<typeof stats>) =>
  `n ${x.n}, p50 ${ms(x.p50)}, p95 ${ms(x.p95)}, max ${ms(x.max)}`;

const { db, base, call, adminCall, close } = await startInProcessApp('load');

let code = 0;
try {
  const ws = await adminCall('POST', '/admin/workspaces', {
    name: 'load',
    tier: 'gold',
    credits: 10_000_000,
  });
  const key: string = (await adminCall('POST', `/admin/workspaces/${ws.id}/keys`, { level: 'read_write' }))
    .key;
  const v2 = (method: string, p: string, body?: unknown) =>
    call(method, `/v2/workspaces/${ws.id}${p}`, body, { 'x-api-key': key });
  const upload = async (pdf: { name: string; data: Uint8Array }) => {
    const form = new FormData();
    form.append('file', new Blob([pdf.data]), pdf.name);
    const r = await fetch(`${base}/v2/workspaces/${ws.id}/files`, {
      method: 'POST',
      headers: { 'x-api-key': key },
      body: form,
    });
    if (r.status !== 200) throw new Error(`upload: ${r.status} ${await r.text()}`);
    return ((await r.json()) as { data: { id: string; fileId: string } }).data;
  };
  const waitJob = async (id: string) => {
    for (;;) {
      const j = await v2('GET', `/jobs/${id}`);
      if (j.status === 'ERROR') throw new Error(`ingest: ${j.statusText}`);
      if (j.status === 'SUCCESS') return;
      await sleep(200);
    }
  };

  const corpus = path.resolve(import.meta.dirname, '../../shared/corpus/extraction');
  const real = ['dev', 'invoices']
    .map((set) => path.join(corpus, set))
    .filter((dir) => existsSync(dir))
    .flatMap((dir) =>
      readdirSync(dir)
        .filter((f) => /\.(pdf|png|jpe?g|webp)$/i.test(f))
        .sort()
        .map((f) => path.join(dir, f)),
    );
  const rng = makeRng(20_261_125);
  const pdfs: { name: string; data: Uint8Array }[] = [];
  for (let i = 0; i < UPLOADERS * PER_UPLOADER; i++) {
    if (real.length > 0) {
      const file = real[i % real.length]!;
      pdfs.push({ name: `${i}-${path.basename(file)}`, data: readFileSync(file) });
    } else {
      pdfs.push({
        name: `contract-${i}.pdf`,
        data: await contractPdf(makeContract(rng, { pageCount: 3 + (i % 4) })),
      });
    }
  }
  const kinds =
    real.length > 0
      ? `${Math.min(real.length, pdfs.length)} distinct corpus documents`
      : 'generated contracts';

  // A run to read: one document, one column.
  const seed = await upload(pdfs[0]!);
  await waitJob(seed.id);
  const table = await v2('POST', '/tables', { name: 'load' });
  await v2('POST', `/tables/${table.id}/columns`, { name: 'Party', prompt: 'Who is the first party?' });
  await v2('POST', `/tables/${table.id}/rows`, { subjectType: 'file', subjectId: seed.fileId });
  const run = (await v2('POST', `/tables/${table.id}/runs`, {})).run;
  const getRun = async () => {
    const t = performance.now();
    await v2('GET', `/tables/${table.id}/runs/${run.id}`);
    return performance.now() - t;
  };

  // Reference: the same read with the service idle.
  for (let i = 0; i < 20; i++) await getRun();
  const idle: number[] = [];
  for (let i = 0; i < 100; i++) {
    idle.push(await getRun());
    await sleep(5);
  }

  // Load: the uploaders, and the reader beside them.
  const posts: number[] = [];
  const gets: number[] = [];
  const jobs: string[] = [];
  let uploading = true;
  const reader = (async () => {
    while (uploading) {
      gets.push(await getRun());
      await sleep(PROBE_EVERY_MS);
    }
  })();
  const tLoad = performance.now();
  await Promise.all(
    Array.from({ length: UPLOADERS }, async (_, u) => {
      for (let i = 0; i < PER_UPLOADER; i++) {
        const pdf = pdfs[u * PER_UPLOADER + i]!;
        const t = performance.now();
        jobs.push((await upload(pdf)).id);
        posts.push(performance.now() - t);
      }
    }),
  );
  const uploadMs = performance.now() - tLoad;
  // Reads go on while the backlog is ingested: that is when the worker is busiest.
  for (const id of jobs) await waitJob(id);
  const ingestMs = performance.now() - tLoad;
  uploading = false;
  await reader;

  const get = stats(gets);
  const post = stats(posts);
  const ref = stats(idle);
  console.log(
    `${UPLOADERS} uploaders x ${PER_UPLOADER} documents (${jobs.length} uploads of ${kinds}), database ${db.kind}; ` +
      `uploads sent in ${ms(uploadMs)}, all ingested in ${ms(ingestMs)}`,
  );
  console.log(`  GET run, idle (reference): ${show(ref)}`);
  console.log(
    `  GET run, under load:       ${show(get)}; p95 ${(get.p95 / ref.p95).toFixed(1)}x the idle p95`,
  );
  console.log(
    `  POST /files, under load:   ${show(post)}; p95 ${(post.p95 / ref.p95).toFixed(1)}x the idle GET p95`,
  );
  const met = get.p95 < TARGET_GET_P95 && post.p95 < TARGET_POST_P95;
  console.log(
    `target GET run p95 < ${TARGET_GET_P95} ms and POST /files p95 < ${TARGET_POST_P95} ms: ${met ? 'MET' : 'NOT MET'}`,
  );
  console.log(`machine: ${os.availableParallelism()} cores, ${os.cpus()[0]?.model}`);
  if (!met) code = 1;
} finally {
  await close();
}
process.exit(code);
