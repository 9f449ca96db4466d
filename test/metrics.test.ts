/**
 * Issue 17 item 3: `GET /metrics` in the Prometheus text format, behind METRICS_TOKEN (off, a
 * 404, without it). The text is read by a strict parser of the exposition format written
 * here, independent of prom-client (which only writes it): every line must be a HELP, a TYPE,
 * or a sample `name{labels} value` of a family whose TYPE came first; histograms must have
 * cumulative buckets ending at `+Inf` equal to their `_count`. The named series must exist and
 * move when real work is done: an upload read into pages, a table run, a search.
 */
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/infra/config.ts';
import { closeWorkerMetrics, serveWorkerMetrics } from '../src/start/worker-metrics.ts';
import { makeTextPdf } from './fixtures/pdf.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import { freePort } from './helpers/process.ts';
import { api, ingestText, seedFileIn } from './helpers/runs.ts';

const TOKEN = 'metrics-token-0123456789abcdef';

// ---------------------------------------------------------------------------------------
// A strict reader of the Prometheus text exposition format (version 0.0.4).

type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

interface Family {
  name: string;
  type: MetricType;
  help: string;
  samples: Sample[];
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES: readonly MetricType[] = ['counter', 'gauge', 'histogram', 'summary', 'untyped'];
/** Samples a family of each type may carry, as suffixes of the family name. */
const SUFFIXES: Record<MetricType, readonly string[]> = {
  counter: ['', '_total'],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

/**
 * A sample value as Prometheus reads it (Go's strconv.ParseFloat): a decimal float, or
 * NaN / Inf / Infinity with an optional sign, in any case (prom-client writes `Nan`).
 */
function parseValue(raw: string, line: string): number {
  const special = /^([-+]?)(inf|infinity|nan)$/i.exec(raw);
  if (special) {
    if (special[2]!.toLowerCase() === 'nan') return Number.NaN;
    return special[1] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (!/^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/.test(raw)) throw new Error(`bad value in: ${line}`);
  return Number(raw);
}

/** `{a="x",b="y\"z"}` from position `i` (at the brace); returns the labels and the index after `}`. */
function parseLabels(line: string, start: number): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  let i = start + 1;
  for (;;) {
    if (line[i] === '}') return { labels, end: i + 1 };
    const eq = line.indexOf('=', i);
    if (eq < 0) throw new Error(`bad labels in: ${line}`);
    const name = line.slice(i, eq);
    if (!LABEL_NAME.test(name)) throw new Error(`bad label name "${name}" in: ${line}`);
    if (name in labels) throw new Error(`label "${name}" twice in: ${line}`);
    if (line[eq + 1] !== '"') throw new Error(`unquoted label value in: ${line}`);
    let value = '';
    let j = eq + 2;
    for (;;) {
      const c = line[j];
      if (c === undefined) throw new Error(`unterminated label value in: ${line}`);
      if (c === '"') break;
      if (c === '\\') {
        const n = line[j + 1];
        if (n === '\\') value += '\\';
        else if (n === '"') value += '"';
        else if (n === 'n') value += '\n';
        else throw new Error(`bad escape in: ${line}`);
        j += 2;
      } else {
        value += c;
        j++;
      }
    }
    labels[name] = value;
    i = j + 1;
    if (line[i] === ',') i++;
    else if (line[i] !== '}') throw new Error(`expected , or } in: ${line}`);
  }
}

function parseExposition(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  if (!text.endsWith('\n')) throw new Error('the text must end with a newline');
  const familyOf = (sampleName: string): Family => {
    for (const f of families.values()) {
      if (SUFFIXES[f.type].some((s) => `${f.name}${s}` === sampleName)) return f;
    }
    throw new Error(`sample ${sampleName} has no TYPE line before it`);
  };
  for (const line of text.slice(0, -1).split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!m) continue; // any other comment
      const [, kind, name, rest] = m as unknown as [string, string, string, string];
      if (!METRIC_NAME.test(name)) throw new Error(`bad metric name in: ${line}`);
      const f = families.get(name) ?? { name, type: 'untyped' as MetricType, help: '', samples: [] };
      if (kind === 'TYPE') {
        if (!(TYPES as readonly string[]).includes(rest)) throw new Error(`bad type in: ${line}`);
        if (f.samples.length > 0) throw new Error(`TYPE after samples in: ${line}`);
        f.type = rest as MetricType;
      } else {
        f.help = rest.replace(/\\n/g, '\n').replace(/\\\\/g, '\\');
      }
      families.set(name, f);
      continue;
    }
    const nameEnd = line.search(/[{ ]/);
    if (nameEnd <= 0) throw new Error(`bad sample: ${line}`);
    const name = line.slice(0, nameEnd);
    if (!METRIC_NAME.test(name)) throw new Error(`bad metric name in: ${line}`);
    let labels: Record<string, string> = {};
    let rest = line.slice(nameEnd);
    if (rest.startsWith('{')) {
      const parsed = parseLabels(line, nameEnd);
      labels = parsed.labels;
      rest = line.slice(parsed.end);
    }
    const parts = rest.split(' ');
    if (parts[0] !== '' || parts.length < 2 || parts.length > 3) throw new Error(`bad sample: ${line}`);
    const value = parseValue(parts[1]!, line);
    if (parts[2] !== undefined && !/^-?\d+$/.test(parts[2])) throw new Error(`bad timestamp in: ${line}`);
    const id = seriesId(name, labels);
    if (seen.has(id)) throw new Error(`series twice: ${id}`);
    seen.add(id);
    familyOf(name).samples.push({ name, labels, value });
  }
  for (const f of families.values()) if (f.type === 'histogram') checkHistogram(f);
  return families;
}

/** Buckets cumulative, ending at +Inf, whose count equals `_count`, for each label set. */
function checkHistogram(f: Family): void {
  const groups = new Map<string, Sample[]>();
  for (const s of f.samples.filter((x) => x.name === `${f.name}_bucket`)) {
    if (s.labels.le === undefined) throw new Error(`${f.name}_bucket without le`);
    const { le: _le, ...rest } = s.labels;
    const key = seriesId('', rest);
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  for (const [key, buckets] of groups) {
    const les = buckets.map((b) => parseValue(b.labels.le!, b.labels.le!));
    for (let i = 1; i < buckets.length; i++) {
      if (!(les[i]! > les[i - 1]!)) throw new Error(`${f.name}${key}: buckets out of order`);
      if (buckets[i]!.value < buckets[i - 1]!.value)
        throw new Error(`${f.name}${key}: buckets not cumulative`);
    }
    if (les.at(-1) !== Number.POSITIVE_INFINITY) throw new Error(`${f.name}${key}: no +Inf bucket`);
    const count = f.samples.find((s) => s.name === `${f.name}_count` && seriesId('', s.labels) === key);
    if (count?.value !== buckets.at(-1)!.value) throw new Error(`${f.name}${key}: +Inf bucket is not _count`);
    if (!f.samples.some((s) => s.name === `${f.name}_sum` && seriesId('', s.labels) === key)) {
      throw new Error(`${f.name}${key}: no _sum`);
    }
  }
}

function seriesId(name: string, labels: Record<string, string>): string {
  const body = Object.keys(labels)
    .sort()
    .map((k) => `${k}=${JSON.stringify(labels[k])}`)
    .join(',');
  return `${name}{${body}}`;
}

describe('the exposition parser used here', () => {
  it('reads good text and refuses what the format forbids', () => {
    const good = [
      '# HELP a_total Things.',
      '# TYPE a_total counter',
      'a_total{x="1",y="q\\"uote"} 3',
      '# TYPE h histogram',
      'h_bucket{le="0.5"} 1',
      'h_bucket{le="+Inf"} 2',
      'h_sum 0.7',
      'h_count 2',
      '',
    ].join('\n');
    const f = parseExposition(good);
    expect(f.get('a_total')!.samples[0]!.labels).toEqual({ x: '1', y: 'q"uote' });
    expect(f.get('h')!.samples).toHaveLength(4);
    expect(() => parseExposition('a 1\n')).toThrow(/no TYPE/);
    expect(() => parseExposition('# TYPE a gauge\na{x=1} 1\n')).toThrow(/unquoted/);
    expect(() => parseExposition('# TYPE a gauge\na one\n')).toThrow(/bad value/);
    expect(() => parseExposition('# TYPE a gauge\na 1\na 2\n')).toThrow(/twice/);
    expect(() =>
      parseExposition('# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n'),
    ).toThrow(/cumulative/);
    expect(() => parseExposition('# TYPE h histogram\nh_bucket{le="1"} 1\nh_sum 1\nh_count 1\n')).toThrow(
      /\+Inf/,
    );
  });
});

// ---------------------------------------------------------------------------------------

async function scrape(h: Harness, token = TOKEN): Promise<Map<string, Family>> {
  const r = await fetch(`${h.baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4; charset=utf-8$/);
  return parseExposition(await r.text());
}

/** The value of one series (labels exact), or 0 when the series does not exist yet. */
function value(families: Map<string, Family>, sample: string, labels: Record<string, string> = {}): number {
  const id = seriesId(sample, labels);
  for (const f of families.values()) {
    const s = f.samples.find((x) => seriesId(x.name, x.labels) === id);
    if (s) return s.value;
  }
  return 0;
}

/** The sum of a sample over every series whose labels include `labels`. */
function total(families: Map<string, Family>, sample: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const f of families.values()) {
    for (const s of f.samples) {
      if (s.name === sample && Object.entries(labels).every(([k, v]) => s.labels[k] === v)) sum += s.value;
    }
  }
  return sum;
}

describe('GET /metrics without METRICS_TOKEN', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h?.close());

  it('answers 404 like a route that does not exist, whatever is sent', async () => {
    const missing = await fetch(`${h.baseUrl}/no-such-route`);
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const r = await fetch(`${h.baseUrl}/metrics`, { headers });
      expect(r.status).toBe(404);
      expect(r.headers.get('content-type')).toBe(missing.headers.get('content-type'));
      expect(await r.json()).toEqual({ success: false, error: 'Route GET /metrics not found.' });
    }
    await missing.text();
  });

  it('is not in the OpenAPI document', async () => {
    const doc = (await h.request('GET', '/openapi.json')).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).not.toContain('/metrics');
  });
});

describe('GET /metrics with METRICS_TOKEN, API and worker in one process', () => {
  let h: Harness;
  let ws: TestWorkspace;
  beforeAll(async () => {
    h = await startHarness({ METRICS_TOKEN: TOKEN }, { worker: true });
    ws = await h.workspace({ tier: 'gold', credits: 1000 });
  });
  afterAll(() => h?.close());

  it('refuses a missing, wrong or non-bearer token with 401 in plain text', async () => {
    for (const authorization of [
      undefined,
      `Bearer ${TOKEN}x`,
      'Bearer metrics-token',
      `Basic ${Buffer.from(`u:${TOKEN}`).toString('base64')}`,
      TOKEN,
    ]) {
      const r = await fetch(`${h.baseUrl}/metrics`, {
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(r.status, String(authorization)).toBe(401);
      expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await r.text()).toMatch(/^Unauthorized/);
    }
    // An API key is not a metrics token.
    const withKey = await fetch(`${h.baseUrl}/metrics`, { headers: { 'x-api-key': ws.key } });
    expect(withKey.status).toBe(401);
    await withKey.text();
  });

  it('serves every named series, typed, with process metrics', async () => {
    const f = await scrape(h);
    const expected: Record<string, MetricType> = {
      folio_http_request_duration_seconds: 'histogram',
      folio_ingest_jobs_total: 'counter',
      folio_ingest_pages_total: 'counter',
      folio_queue_depth: 'gauge',
      folio_queue_oldest_task_age_seconds: 'gauge',
      folio_cells: 'gauge',
      folio_cells_finished_total: 'counter',
      folio_engine_cell_duration_seconds: 'histogram',
      folio_credits_charged_total: 'counter',
      folio_search_duration_seconds: 'histogram',
      process_cpu_seconds_total: 'counter',
      process_resident_memory_bytes: 'gauge',
      nodejs_eventloop_lag_seconds: 'gauge',
      nodejs_heap_size_used_bytes: 'gauge',
    };
    for (const [name, type] of Object.entries(expected)) {
      expect(f.get(name)?.type, name).toBe(type);
      expect(f.get(name)?.help, name).not.toBe('');
    }
    // The gauges read from the database have a series for every task kind and active status.
    for (const kind of ['ingest', 'file.purge', 'sweep']) {
      for (const state of ['ready', 'running', 'delayed']) {
        expect(
          f.get('folio_queue_depth')!.samples.some((s) => s.labels.kind === kind && s.labels.state === state),
        ).toBe(true);
      }
      expect(f.get('folio_queue_oldest_task_age_seconds')!.samples.some((s) => s.labels.kind === kind)).toBe(
        true,
      );
    }
    // The worker's recurring sweep is one row, in one state or another.
    expect(total(f, 'folio_queue_depth', { kind: 'sweep' })).toBe(1);
    expect(
      f
        .get('folio_cells')!
        .samples.map((s) => s.labels.status)
        .sort(),
    ).toEqual(['IN_PROGRESS', 'IN_QUEUE']);
    expect(value(f, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('moves when work is done: an upload read into pages, a table run, a search', async () => {
    const before = await scrape(h);
    const x = api(h, ws);
    const balance0 = await x.balance();

    // Ingest: two pages, stored and charged.
    const fileId = await ingestText(h, ws, [
      [
        'SERVICES AGREEMENT',
        'This Agreement is effective as of March 3, 2021 between Acme Corp and Beta LLC.',
      ],
      ['The total contract price is $12,300.00.', 'Governed by the laws of the State of Delaware.'],
    ]);
    // A table run over it: two cells.
    const t = await x.table('metrics');
    await x.column(t, { prompt: 'What is the effective date?', outputType: 'date' });
    await x.column(t, { prompt: 'Who are the parties?' });
    await x.fileRow(t, fileId);
    const started = await x.must('POST', `/tables/${t}/runs`, {});
    const run = await x.waitRun(t, started.run.id);
    expect(run.status).toBe('SUCCESS');
    const cells = await x.cells(t);
    const succeeded = cells.filter((c) => c.status === 'SUCCESS').length;
    expect(cells).toHaveLength(2);
    // A search.
    const found = await h.request('POST', '/v1/search', { key: ws.key, body: { query: 'Delaware' } });
    expect(found.statusCode).toBe(200);
    const spent = balance0 - (await x.balance());

    const after = await scrape(h);
    const moved = (sample: string, labels: Record<string, string> = {}) =>
      total(after, sample, labels) - total(before, sample, labels);

    expect(moved('folio_ingest_jobs_total', { outcome: 'success' })).toBe(1);
    expect(moved('folio_ingest_jobs_total', { outcome: 'error' })).toBe(0);
    expect(moved('folio_ingest_pages_total', { outcome: 'success' })).toBe(2);
    expect(moved('folio_credits_charged_total', { reason: 'ingest_page' })).toBe(2);
    expect(moved('folio_credits_charged_total', { reason: 'search' })).toBe(1);
    expect(moved('folio_cells_finished_total')).toBe(2);
    expect(moved('folio_cells_finished_total', { outcome: 'success' })).toBe(succeeded);
    expect(moved('folio_engine_cell_duration_seconds_count')).toBe(2);
    expect(moved('folio_search_duration_seconds_count', { outcome: 'success' })).toBe(1);
    // Every credit that left the balance is counted under one reason.
    expect(moved('folio_credits_charged_total')).toBe(spent);
    expect(moved('folio_credits_charged_total', { reason: 'cell' })).toBe(spent - 3);

    // Requests by route pattern and status; ids never become labels.
    const upload = { method: 'POST', route: '/v2/workspaces/:workspaceId/files', status_code: '200' };
    expect(moved('folio_http_request_duration_seconds_count', upload)).toBe(1);
    expect(moved('folio_http_request_duration_seconds_bucket', { ...upload, le: '+Inf' })).toBe(1);
    const search = { method: 'POST', route: '/v1/search', status_code: '200' };
    expect(moved('folio_http_request_duration_seconds_count', search)).toBe(1);
    expect(
      moved('folio_http_request_duration_seconds_count', { route: '/metrics', status_code: '200' }),
    ).toBe(1);
    const routes = new Set(
      after.get('folio_http_request_duration_seconds')!.samples.map((s) => s.labels.route),
    );
    for (const route of routes) expect(route).toMatch(/^(\/[A-Za-z0-9._:-]*)+$|^unmatched$/);
    for (const id of [ws.id, fileId, t, started.run.id]) {
      for (const route of routes) expect(route).not.toContain(id);
    }
    // Nothing is left waiting once the work is done.
    expect(total(after, 'folio_cells')).toBe(0);
    expect(total(after, 'folio_queue_depth', { kind: 'ingest' })).toBe(0);
  });

  it('counts a request no route matched under "unmatched", not its URL', async () => {
    const before = await scrape(h);
    const r = await fetch(`${h.baseUrl}/v2/nothing/here-${ws.id}`);
    expect(r.status).toBe(404);
    await r.text();
    const after = await scrape(h);
    const labels = { method: 'GET', route: 'unmatched', status_code: '404' };
    expect(
      total(after, 'folio_http_request_duration_seconds_count', labels) -
        total(before, 'folio_http_request_duration_seconds_count', labels),
    ).toBe(1);
    expect(JSON.stringify([...after.values()])).not.toContain(ws.id);
  });
});

describe('the queue and cell gauges, read from the database at scrape (no worker here)', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let now = Date.UTC(2026, 4, 1, 12);
  beforeAll(async () => {
    h = await startHarness({ METRICS_TOKEN: TOKEN }, { now: () => now });
    ws = await h.workspace({ tier: 'gold', credits: 1000 });
  });
  afterAll(() => h?.close());

  it('shows a task waiting for a worker, and how long it has waited by the clock', async () => {
    const up = await h.upload(ws, { file: { data: await makeTextPdf([['one page']]), name: 'a.pdf' } });
    expect(up.status).toBe(200);
    await up.text();
    let f = await scrape(h);
    expect(value(f, 'folio_queue_depth', { kind: 'ingest', state: 'ready' })).toBe(1);
    expect(value(f, 'folio_queue_depth', { kind: 'ingest', state: 'running' })).toBe(0);
    expect(value(f, 'folio_queue_oldest_task_age_seconds', { kind: 'ingest' })).toBe(0);
    now += 90_000;
    f = await scrape(h);
    expect(value(f, 'folio_queue_oldest_task_age_seconds', { kind: 'ingest' })).toBe(90);
    expect(value(f, 'folio_queue_oldest_task_age_seconds', { kind: 'file.purge' })).toBe(0);
  });

  it('shows the cells a run queued', async () => {
    const x = api(h, ws);
    const fileId = await seedFileIn(h.db, ws.id, { state: 'ready' });
    const t = await x.table('gauges');
    for (const prompt of ['What is the date?', 'Who signed?', 'What is the price?'])
      await x.column(t, { prompt });
    await x.fileRow(t, fileId);
    const before = await scrape(h);
    const started = await x.must('POST', `/tables/${t}/runs`, {});
    expect(started.cells).toBe(3);
    const after = await scrape(h);
    expect(
      value(after, 'folio_cells', { status: 'IN_QUEUE' }) -
        value(before, 'folio_cells', { status: 'IN_QUEUE' }),
    ).toBe(3);
    expect(value(after, 'folio_cells', { status: 'IN_PROGRESS' })).toBe(0);
  });
});

describe('a worker process run on its own (WORKER_METRICS_PORT)', () => {
  let t: TestDatabase;
  let server: Server;
  let base: string;
  beforeAll(async () => {
    t = await createTestDatabase();
    const port = await freePort();
    server = await serveWorkerMetrics({
      db: t.db,
      host: '127.0.0.1',
      port,
      token: TOKEN,
      clock: () => Date.now(),
      log: { error: () => {} },
    });
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    if (server) await closeWorkerMetrics(server);
    await t?.drop();
  });

  it('serves the same text behind the same token, and nothing else', async () => {
    const r = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4; charset=utf-8$/);
    const f = parseExposition(await r.text());
    for (const name of [
      'folio_ingest_pages_total',
      'folio_engine_cell_duration_seconds',
      'folio_queue_depth',
    ]) {
      expect(f.has(name), name).toBe(true);
    }
    expect(f.get('process_resident_memory_bytes')?.type).toBe('gauge');
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}0` }]) {
      const no = await fetch(`${base}/metrics`, { headers });
      expect(no.status).toBe(401);
      expect(await no.text()).toMatch(/^Unauthorized/);
    }
    for (const p of ['/', '/healthz', '/v2/workspaces']) {
      const other = await fetch(`${base}${p}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(other.status).toBe(404);
      await other.text();
    }
  });

  it('is refused at start without METRICS_TOKEN, or with a short one', () => {
    expect(() => loadConfig({ WORKER_METRICS_PORT: '9464' })).toThrow(ConfigError);
    expect(() => loadConfig({ WORKER_METRICS_PORT: '9464' })).toThrow(
      /WORKER_METRICS_PORT needs METRICS_TOKEN/,
    );
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be at least 16/);
    expect(() => loadConfig({ METRICS_TOKEN: TOKEN, WORKER_METRICS_PORT: 'x' })).toThrow(
      /WORKER_METRICS_PORT/,
    );
    expect(loadConfig({ METRICS_TOKEN: TOKEN, WORKER_METRICS_PORT: '9464' })).toMatchObject({
      metricsToken: TOKEN,
      workerMetricsPort: 9464,
      shutdownGraceMs: 10_000,
    });
    expect(loadConfig({})).toMatchObject({ metricsToken: null, workerMetricsPort: null });
  });
});
