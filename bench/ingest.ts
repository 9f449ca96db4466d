/**
 * `npm run bench:ingest`: ingest throughput and memory of a real `npm start` process,
 * against pdftoppm on the same files in the same run. Targets (issue 18), each the median
 * of `--runs N` runs (default 3), every run a fresh process on an empty data directory:
 * >= 1.0x pdftoppm's throughput on the 200- and 1,000-page text PDFs, >= 0.8x on the
 * office-made PDF, peak RSS (VmHWM, so including the first start) < 400 MB. Exits 1 when a
 * target is missed. `--profile` also prints where the time goes, stage by stage.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, openAsBlob, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { convertToPdf } from '../src/ingest/office.ts';
import { makeOfficeFile } from '../test/fixtures/office.ts';
import { makeLargeTextPdf } from '../test/fixtures/pdf.ts';
import { createTestDatabase } from '../test/helpers/database.ts';
import { freePort, type Spawned, spawnScript, waitHealthy } from '../test/helpers/process.ts';

const { values: args } = parseArgs({
  options: { profile: { type: 'boolean', default: false }, runs: { type: 'string', default: '3' } },
});
const RUNS = Math.max(1, Number(args.runs) || 1);
const PROFILE = args.profile === true;

const tmp = mkdtempSync(path.join(os.tmpdir(), 'folio-bench-'));
const MB = 1024 * 1024;
const ADMIN = 'bench-admin-token-0123456789';
const TARGET_RSS_MB = 400;

interface Profile {
  pages: number;
  wallMs: number;
  stages: Record<string, number>;
}

/** One fresh service: a new data directory (and schema), started and warmed up. */
async function startService(run: number) {
  // On PostgreSQL each run gets a schema of its own, dropped at the end.
  const pg = process.env.DATABASE_URL ? await createTestDatabase({ migrate: false }) : null;
  const port = await freePort();
  const server: Spawned = spawnScript('src/start/main.ts', {
    PORT: String(port),
    DATA_DIR: path.join(tmp, `data-${run}`),
    ADMIN_TOKEN: ADMIN,
    // The bench polls fast; with DATABASE_URL set it measures the process without PGlite's own memory.
    RATE_LIMIT_PER_MIN: '0',
    // As `npm start` sets them: fewer glibc arenas (less fragmentation across threads) and a
    // small young generation (V8 sizes it from the machine's RAM otherwise).
    MALLOC_ARENA_MAX: '2',
    NODE_OPTIONS: '--max-semi-space-size=4',
    ...(PROFILE ? { FOLIO_INGEST_PROFILE: '1' } : {}),
    // Experiments: BENCH_ENV='A=1,B=2' passes settings to the service.
    ...Object.fromEntries(
      (process.env.BENCH_ENV ?? '')
        .split(',')
        .filter(Boolean)
        .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
    ),
    ...(pg?.url ? { DATABASE_URL: pg.url } : {}),
  });
  // A first start on an empty data directory (with PGlite, that includes creating the database).
  const firstStartMs = await waitHealthy(server, port);
  const base = `http://127.0.0.1:${port}`;
  const pid = server.proc.pid!;
  /** Resident set now and its high-water mark, from the kernel. */
  const rss = () => {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)![1]);
    return { now: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  };
  const startPeak = rss().peak;
  console.log(
    `run ${run}: first start on an empty data directory healthy after ${(firstStartMs / 1000).toFixed(1)} s, VmHWM ${startPeak.toFixed(0)} MB`,
  );

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

  async function ingest(file: string): Promise<{ ms: number; pages: number; id: string }> {
    // From the upload's first byte to the job's own finishedAt (epoch ms, the same clock on
    // one machine): exact whatever the polling interval, so the bench polls gently instead
    // of loading the service it measures with 50 requests a second.
    const t = Date.now();
    const job = await upload(file);
    let finishedAt: number;
    for (;;) {
      const j = (await (
        await fetch(`${base}/v2/workspaces/${ws.id}/jobs/${job.id}`, { headers: { 'x-api-key': key } })
      ).json()) as {
        data: { status: string; statusText: string; finishedAt: number };
      };
      if (j.data.status === 'ERROR') throw new Error(`${file}: ${j.data.statusText}`);
      if (j.data.status === 'SUCCESS') {
        finishedAt = j.data.finishedAt;
        break;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    const ms = finishedAt - t;
    const f = (await (
      await fetch(`${base}/v2/workspaces/${ws.id}/files/${job.fileId}`, { headers: { 'x-api-key': key } })
    ).json()) as {
      data: { itemCount: number };
    };
    return { ms, pages: f.data.itemCount, id: job.id };
  }

  /** The profile line the service printed for the job, with FOLIO_INGEST_PROFILE=1. */
  const profileOf = (jobId: string): Profile | null => {
    for (const line of server.output().split('\n')) {
      if (!line.startsWith('FOLIO_INGEST_PROFILE ')) continue;
      const p = JSON.parse(line.slice('FOLIO_INGEST_PROFILE '.length)) as Profile & { jobId: string };
      if (p.jobId === jobId) return p;
    }
    return null;
  };

  async function ingestProfiled(file: string) {
    const r = await ingest(file);
    // The job prints its line just before it reports SUCCESS; give stdout a moment.
    let profile: Profile | null = null;
    for (let i = 0; PROFILE && !profile && i < 50; i++) {
      profile = profileOf(r.id);
      if (!profile) await new Promise((res) => setTimeout(res, 20));
    }
    return { ...r, profile };
  }

  // Warm-up, so the runs measure a running service rather than its first minute: worker
  // threads started, and PDFium's hot functions tiered up to optimised code, which takes
  // V8 some tens of pages (the first ten render at about half speed). The page threads
  // share one compiled module, so a service keeps that code for as long as it runs.
  const warm = path.join(tmp, 'warm.pdf');
  writeFileSync(warm, await makeLargeTextPdf(40));
  await ingest(warm);

  return { server, pg, rss, sampled, ingest: ingestProfiled, upload, firstStartMs, startPeak };
}

function pdftoppm(file: string): number {
  const t = performance.now();
  execFileSync('pdftoppm', ['-r', '150', '-jpeg', file, path.join(tmp, `ppm-${path.basename(file)}`)]);
  return performance.now() - t;
}

// The files, made once for all runs.
const text200 = path.join(tmp, 'text-200.pdf');
writeFileSync(text200, await makeLargeTextPdf(200));
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
const text1000 = path.join(tmp, 'text-1000.pdf');
writeFileSync(text1000, await makeLargeTextPdf(1000));

const FILES = [
  { label: 'generated text PDF', file: text200, target: 1.0 },
  { label: 'office-made PDF (LibreOffice)', file: office57, target: 0.8 },
  { label: 'generated text PDF', file: text1000, target: 1.0 },
];

const STAGES: [string, string][] = [
  ['render', 'render (PDFium, 150 dpi)'],
  ['jpeg', 'JPEG encode'],
  ['retrieval', 'retrieval image (render+encode)'],
  ['text', 'text extraction (words, images)'],
  ['hash', 'look hash of the retrieval image'],
  ['split', 'single-page PDF split'],
  ['ocrRender', 'OCR image (render+PNG)'],
  ['idle', 'page threads idle, waiting for a task'],
  ['transfer', 'thread -> main delivery'],
  ['ocr', 'OCR (tesseract)'],
  ['blob', 'blob writes (page threads; S3: main)'],
  ['fsync', '  of which fsync (sum)'],
  ['db', 'database (page transactions)'],
  ['finish', 'job end (lexemes, hashes, finish)'],
  ['wait', 'main loop waiting on pages'],
  ['cpu', 'process CPU, all threads'],
  ['sys', '  of which the kernel (system time)'],
  ['mainCpu', '  of which the main thread'],
];

function printProfile(label: string, p: Profile) {
  console.log(`  profile ${label}: ${p.pages} pages in ${(p.wallMs / 1000).toFixed(2)} s (job wall time)`);
  for (const [key, name] of STAGES) {
    const ms = p.stages[key];
    if (ms === undefined) continue;
    console.log(
      `    ${name.padEnd(36)} ${(ms / p.pages).toFixed(2).padStart(7)} ms/page  ${((100 * ms) / p.wallMs).toFixed(0).padStart(4)}% of wall`,
    );
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

interface Measure {
  pages: number;
  pps: number;
  refPps: number;
  ratio: number;
  peakMb: number;
}
const results: Measure[][] = FILES.map(() => []);
const peaks: number[] = [];
const rows: string[] = [];

for (let run = 1; run <= RUNS; run++) {
  const svc = await startService(run);
  for (const [i, f] of FILES.entries()) {
    const ref = pdftoppm(f.file);
    const { result: ours, peakMb } = await svc.sampled(() => svc.ingest(f.file));
    const pps = ours.pages / (ours.ms / 1000);
    const refPps = ours.pages / (ref / 1000);
    results[i]!.push({ pages: ours.pages, pps, refPps, ratio: pps / refPps, peakMb });
    rows.push(
      `run ${run}  ${f.label.padEnd(30)} ${String(ours.pages).padStart(5)} pages  folio ${pps.toFixed(1).padStart(6)} p/s  ` +
        `pdftoppm ${refPps.toFixed(1).padStart(6)} p/s  ratio ${(pps / refPps).toFixed(2)}  peak RSS during ingest ${peakMb.toFixed(0)} MB`,
    );
    console.log(rows.at(-1));
    if (ours.profile) printProfile(`${f.label}, ${ours.pages} pages`, ours.profile);
  }
  const peak = svc.rss().peak;
  peaks.push(peak);
  rows.push(`run ${run}  process VmHWM (first start + all ingests) ${peak.toFixed(0)} MB`);
  console.log(rows.at(-1));

  if (run === RUNS) {
    // Upload memory last: the 99 MB body is junk after its header, and the worker that then
    // tries to open it keeps a heap that size until it idles out, which would inflate the
    // figures above.
    const bigFile = path.join(tmp, 'big.pdf');
    const big = Buffer.alloc(99 * MB, 0x20);
    Buffer.from('%PDF-1.4\n').copy(big);
    writeFileSync(bigFile, big);
    const beforeUpload = svc.rss();
    await svc.upload(bigFile);
    const afterUpload = svc.rss();
    rows.push(
      `upload of 99 MB: server RSS ${beforeUpload.now.toFixed(0)} -> ${afterUpload.now.toFixed(0)} MB, ` +
        `peak ${beforeUpload.peak.toFixed(0)} -> ${afterUpload.peak.toFixed(0)} MB (growth ${(afterUpload.peak - beforeUpload.peak).toFixed(0)} MB)`,
    );
    console.log(rows.at(-1));
  }
  await svc.server.stop('SIGTERM');
  await svc.pg?.drop();
}

console.log(
  `\nmachine: ${os.availableParallelism()} cores, ${os.cpus()[0]?.model}; database: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PGlite'}; ${RUNS} run(s)`,
);
console.log(rows.join('\n'));
console.log(`\nmedians of ${RUNS} run(s), targets as ratios to pdftoppm measured in the same run:`);
const missed: string[] = [];
for (const [i, f] of FILES.entries()) {
  const r = results[i]!;
  const ratio = median(r.map((m) => m.ratio));
  const ok = ratio >= f.target;
  if (!ok) missed.push(`${f.label} (${r[0]!.pages} pages) ratio ${ratio.toFixed(2)} < ${f.target}`);
  console.log(
    `${ok ? 'PASS' : 'FAIL'}  ${f.label.padEnd(30)} ${String(r[0]!.pages).padStart(5)} pages  folio ${median(
      r.map((m) => m.pps),
    )
      .toFixed(1)
      .padStart(6)} p/s  ` +
      `pdftoppm ${median(r.map((m) => m.refPps))
        .toFixed(1)
        .padStart(
          6,
        )} p/s  ratio ${ratio.toFixed(2)} (target >= ${f.target}; runs ${r.map((m) => m.ratio.toFixed(2)).join(', ')})`,
  );
}
const peak = median(peaks);
const peakOk = peak < TARGET_RSS_MB;
if (!peakOk) missed.push(`peak RSS ${peak.toFixed(0)} MB >= ${TARGET_RSS_MB} MB`);
console.log(
  `${peakOk ? 'PASS' : 'FAIL'}  peak RSS including the first start ${peak.toFixed(0)} MB (target < ${TARGET_RSS_MB} MB; runs ${peaks.map((p) => p.toFixed(0)).join(', ')})`,
);
if (missed.length > 0) {
  console.log(`\n${missed.length} target(s) missed: ${missed.join('; ')}`);
  process.exitCode = 1;
}
