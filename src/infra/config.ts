import os from 'node:os';
import path from 'node:path';
import type { OpenAISettings } from '../engine/openai/engine.ts';

/**
 * Settings come only from the environment, are parsed once at boot into a frozen object
 * and passed down; nothing reads process.env at module load.
 */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly databaseUrl: string | null;
  readonly dbPoolSize: number;
  readonly adminToken: string | null;
  /** Enables GET /metrics (Authorization: Bearer); null: the route answers 404. */
  readonly metricsToken: string | null;
  /** A worker process run on its own serves GET /metrics on this port; null: it serves none. */
  readonly workerMetricsPort: number | null;
  /** null means: generate once and keep it (DATA_DIR file or, on PostgreSQL, the database). */
  readonly shareSecret: string | null;
  readonly publicUrl: string;
  readonly rateLimitPerMin: number;
  /** Failed authentications one address may make per minute before it answers 429; 0: no limit. */
  readonly authFailuresPerMin: number;
  /** Fastify's trustProxy: which hops' X-Forwarded-For to believe for the client address. */
  readonly trustProxy: boolean | number | string[];
  /** A request body that receives no byte for this long answers 408 and closes; 0: never. */
  readonly requestIdleTimeoutMs: number;
  /** Time allowed for the headers, and for the whole body of any request but an upload; 0: no limit. */
  readonly requestBodyTimeoutMs: number;
  /** Time allowed to receive any request whole, an upload included; 0: no limit. */
  readonly uploadTimeoutMs: number;
  /** Webhook targets may be loopback or private addresses (tests, local use). */
  readonly webhookAllowPrivate: boolean;
  /** How long a webhook endpoint has to answer one delivery. */
  readonly webhookTimeoutMs: number;
  /** A query slower than this is logged (warn) by its name; 0 turns it off. */
  readonly slowQueryMs: number;
  readonly logLevel: LogLevel;
  readonly initialCredits: number;
  readonly blob: BlobConfig;
  /** Tasks (ingest jobs, purges) one process works on at once. */
  readonly workerConcurrency: number;
  /** Ingest tasks one workspace may run at once across the deployment; 0: no cap (claims stay fair). */
  readonly workspaceTaskLimit: number;
  readonly runConcurrency: number;
  readonly engineThreads: number;
  /** Worker threads for page rendering and text extraction. */
  readonly ingestThreads: number;
  readonly taskLeaseMs: number;
  /** On SIGTERM/SIGINT: how long in-flight requests, tasks and cell batches may take to finish. */
  readonly shutdownGraceMs: number;
  readonly sweepIntervalMs: number;
  /** An upload session untouched this long is refused and its chunks swept (interface.md 4.8). */
  readonly uploadSessionIdleMs: number;
  readonly officeTimeoutMs: number;
  /** How far an office file may unzip before conversion, and the CPU and memory its conversion may use. */
  readonly officeLimits: OfficeLimits;
  /** `/healthz` reports degraded when less than this many bytes are free under DATA_DIR. */
  readonly diskFreeMinBytes: number;
  readonly renderDpi: number;
  /** The answer engine runs use (decisions.md D5). */
  readonly engine: EngineConfig;
  /** Credits one search request costs (decisions.md D3). */
  readonly searchPrice: number;
  /** The embeddings provider vectorize and search use (D6); null: full-text search only. */
  readonly embeddings: EmbeddingsConfig | null;
}

/** Budgets of an office (OOXML) file: its zip is read before LibreOffice starts, which runs under rlimits. */
export interface OfficeLimits {
  readonly maxUnzippedBytes: number;
  readonly maxRatio: number;
  readonly maxEntries: number;
  /** RLIMIT_CPU of the converter's processes; 0: none. */
  readonly cpuSeconds: number;
  /** RLIMIT_AS of the converter's processes; 0: none. */
  readonly memoryBytes: number;
}

/** An OpenAI-compatible `/embeddings` server; `apiKey` is not enumerable, like the engine's. */
export interface EmbeddingsConfig {
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey: string | null;
  /** The server also embeds images (sent as `{image: <data URL>}` inputs). */
  readonly images: boolean;
}

export type EngineConfig =
  | { kind: 'local'; scorer: 'rules' | 'learned' }
  /** `apiKey` is not enumerable: left out of JSON.stringify and util.inspect, so a logged config never shows it. */
  | ({ kind: 'openai' } & OpenAISettings);

export type BlobConfig =
  | { kind: 'local'; rootDir: string }
  | {
      kind: 's3';
      bucket: string;
      endpoint?: string;
      region: string;
      accessKeyId?: string;
      secretAccessKey?: string;
      forcePathStyle: boolean;
      prefix?: string;
    };

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export interface SettingDoc {
  readonly name: string;
  readonly defaultValue: string;
  readonly description: string;
}

/** The README's settings table is checked against this list by a test. */
export const SETTINGS: readonly SettingDoc[] = [
  { name: 'PORT', defaultValue: '8080', description: 'TCP port the HTTP API listens on.' },
  {
    name: 'HOST',
    defaultValue: '127.0.0.1',
    description: 'Interface to bind; `0.0.0.0` to accept remote connections.',
  },
  {
    name: 'DATA_DIR',
    defaultValue: './data',
    description: 'Embedded database, page bytes, generated secrets and the process lock.',
  },
  {
    name: 'DATABASE_URL',
    defaultValue: '(unset)',
    description: 'PostgreSQL connection string; unset means the embedded PGlite database in DATA_DIR.',
  },
  {
    name: 'DB_POOL_SIZE',
    defaultValue: '10',
    description: 'Connections per process when DATABASE_URL is set.',
  },
  {
    name: 'ADMIN_TOKEN',
    defaultValue: '(unset)',
    description:
      'Enables the `/admin` API (header `x-admin-token`); unset, every admin route answers 404. At least 16 characters.',
  },
  {
    name: 'METRICS_TOKEN',
    defaultValue: '(unset)',
    description:
      'Enables `GET /metrics` (Prometheus text format), which then requires `Authorization: Bearer <token>`; unset, the route answers 404. At least 16 characters.',
  },
  {
    name: 'WORKER_METRICS_PORT',
    defaultValue: '(unset)',
    description:
      'A worker process run on its own (`npm run start:worker`) serves `GET /metrics` on this port (on HOST), with the same token, so its ingest, cell and engine series can be scraped; needs METRICS_TOKEN. Unset, it serves nothing.',
  },
  {
    name: 'SHARE_SECRET',
    defaultValue: '(generated)',
    description:
      'HMAC key for share links, at least 32 characters. Unset: generated once and kept in DATA_DIR (embedded) or in the database (PostgreSQL), so every process agrees.',
  },
  {
    name: 'PUBLIC_URL',
    defaultValue: 'http://HOST:PORT',
    description: 'Base address used in share URLs handed to clients.',
  },
  {
    name: 'RATE_LIMIT_PER_MIN',
    defaultValue: '600',
    description: 'Requests per minute per API key (per process); 0 disables the limit.',
  },
  {
    name: 'AUTH_FAILURES_PER_MIN',
    defaultValue: '30',
    description:
      'Failed authentications (a wrong, unknown, expired or revoked API key, a wrong admin token) one source address may make per minute, per process; past it every request from that address that needs a key or the admin token answers 429 until the minute ends. 0 disables the limit.',
  },
  {
    name: 'WEBHOOK_ALLOW_PRIVATE',
    defaultValue: 'false',
    description:
      'Let webhook URLs point at loopback or private addresses (tests, a receiver on the same machine or network). Off, a webhook URL must resolve to public addresses only, the same guard as upload URLs.',
  },
  {
    name: 'WEBHOOK_TIMEOUT_MS',
    defaultValue: '10000',
    description:
      'How long a webhook endpoint has to answer a delivery before the attempt counts as failed and is retried.',
  },
  {
    name: 'TRUST_PROXY',
    defaultValue: '(unset)',
    description:
      "Behind a load balancer or reverse proxy: `true` (trust every hop), a number of hops, or a comma-separated list of proxy addresses or CIDR ranges whose `X-Forwarded-For` is believed. The client address it yields is what AUTH_FAILURES_PER_MIN counts and logs show; unset, the connection's own address is used.",
  },
  {
    name: 'REQUEST_IDLE_TIMEOUT_MS',
    defaultValue: '30000',
    description:
      'A request whose body receives no byte for this long (a stalled upload, a body declared and never sent) answers 408 and the connection closes; a slow upload that keeps moving is not cut. 0 turns it off.',
  },
  {
    name: 'REQUEST_BODY_TIMEOUT_MS',
    defaultValue: '60000',
    description:
      'Time allowed to receive the headers of a request and the whole body of any request but a multipart upload; past it the request answers 408 and the connection closes. 0 turns it off.',
  },
  {
    name: 'UPLOAD_TIMEOUT_MS',
    defaultValue: '3600000',
    description:
      'Time allowed to receive any request whole, a multipart upload included (1 hour: 100 MB at about 30 KB/s); past it the request answers 408 and the connection closes. 0 turns it off.',
  },
  {
    name: 'SLOW_QUERY_MS',
    defaultValue: '1000',
    description:
      'A database query slower than this many milliseconds is logged (warn) with its name (`<aggregate>.<function>`), never its parameters; 0 turns it off.',
  },
  {
    name: 'LOG_LEVEL',
    defaultValue: 'info',
    description: 'fatal, error, warn, info, debug, trace or silent.',
  },
  {
    name: 'INITIAL_CREDITS',
    defaultValue: '1000',
    description: 'Credits given to the `default` workspace created on first start of the embedded database.',
  },
  {
    name: 'BLOB_STORE',
    defaultValue: 'local',
    description:
      '`local` keeps page bytes under `DATA_DIR/blobs`; `s3` uses S3-compatible object storage (settings below).',
  },
  { name: 'S3_BUCKET', defaultValue: '(unset)', description: 'Bucket for `BLOB_STORE=s3` (required then).' },
  {
    name: 'S3_ENDPOINT',
    defaultValue: '(AWS)',
    description: 'Endpoint of an S3-compatible server (MinIO, Ceph, R2, ...); unset means AWS.',
  },
  { name: 'S3_REGION', defaultValue: 'us-east-1', description: 'Region for the S3 client.' },
  {
    name: 'S3_ACCESS_KEY_ID',
    defaultValue: '(SDK default chain)',
    description: 'Access key; unset uses the AWS SDK default credential chain.',
  },
  {
    name: 'S3_SECRET_ACCESS_KEY',
    defaultValue: '(SDK default chain)',
    description: 'Secret key matching S3_ACCESS_KEY_ID.',
  },
  {
    name: 'S3_FORCE_PATH_STYLE',
    defaultValue: 'true when S3_ENDPOINT is set',
    description: 'Path-style bucket addressing, which most self-hosted servers need.',
  },
  {
    name: 'S3_PREFIX',
    defaultValue: '(none)',
    description: 'Key prefix inside the bucket, to share a bucket between deployments.',
  },
  {
    name: 'WORKER_CONCURRENCY',
    defaultValue: '2',
    description: 'Ingest jobs and other tasks one worker process runs at once.',
  },
  {
    name: 'WORKSPACE_TASK_LIMIT',
    defaultValue: '0',
    description:
      'Ingest tasks one workspace may run at once, counted across every worker of the deployment; 0 means no cap. Claims are fair either way: the workspace with the fewest tasks running goes first.',
  },
  {
    name: 'RUN_CONCURRENCY',
    defaultValue: '2',
    description:
      'Batches of table cells one worker process answers at once (up to 16 cells each with the local engine, 1 with a model server).',
  },
  {
    name: 'ENGINE_THREADS',
    defaultValue: 'number of CPUs minus one (1 to 4)',
    description:
      'Worker threads the local answer engine runs on, per worker process; 0 answers on the main thread.',
  },
  {
    name: 'INGEST_THREADS',
    defaultValue: 'number of CPUs',
    description: 'Worker threads rendering pages and reading text, per process.',
  },
  {
    name: 'TASK_LEASE_MS',
    defaultValue: '60000',
    description:
      'How long a claimed task or table cell may go without a heartbeat before another worker takes it over (a dead worker).',
  },
  {
    name: 'SHUTDOWN_GRACE_MS',
    defaultValue: '10000',
    description:
      'On SIGTERM or SIGINT, how long in-flight requests, ingest tasks and cell batches may take to finish before the unfinished work is handed back to the queue; then the process exits 0.',
  },
  {
    name: 'SWEEP_INTERVAL_MS',
    defaultValue: '43200000',
    description: 'How often expired files are hard-deleted (twice a day by default).',
  },
  {
    name: 'UPLOAD_SESSION_IDLE_MS',
    defaultValue: '86400000',
    description:
      'A v1 upload session with no call for this long expires: its key is refused and its chunks are removed by the next sweep (24 hours by default).',
  },
  {
    name: 'OFFICE_TIMEOUT_MS',
    defaultValue: '120000',
    description: 'A LibreOffice conversion running longer is killed and its job fails.',
  },
  {
    name: 'OFFICE_MAX_UNZIPPED_MB',
    defaultValue: '512',
    description:
      'A DOCX, PPTX or XLSX whose zip parts add up to more than this many MB uncompressed is refused before conversion (its job ends ERROR, nothing charged).',
  },
  {
    name: 'OFFICE_MAX_ZIP_RATIO',
    defaultValue: '100',
    description:
      'A DOCX, PPTX or XLSX part above 1 MB that expands more than this many times its compressed size (a zip bomb) is refused before conversion.',
  },
  {
    name: 'OFFICE_MAX_ZIP_ENTRIES',
    defaultValue: '10000',
    description: 'A DOCX, PPTX or XLSX with more zip parts than this is refused before conversion.',
  },
  {
    name: 'OFFICE_CPU_SECONDS',
    defaultValue: '90',
    description:
      'CPU time each LibreOffice process may use per conversion (RLIMIT_CPU, through prlimit or ulimit) before the kernel stops it and the job fails; 0 turns it off. OFFICE_TIMEOUT_MS still bounds wall time.',
  },
  {
    name: 'OFFICE_MEMORY_MB',
    defaultValue: '2048',
    description:
      'Address space each LibreOffice process may map per conversion (RLIMIT_AS); a conversion needing more fails its job. 0 turns it off.',
  },
  {
    name: 'DISK_FREE_MIN_MB',
    defaultValue: '512',
    description:
      '`/healthz` reports `degraded` (still 200), with the reason, when less than this many MB are free on the disk holding DATA_DIR; 0 turns the check off.',
  },
  { name: 'RENDER_DPI', defaultValue: '150', description: 'Resolution of the `jpg` page images.' },
  {
    name: 'ENGINE',
    defaultValue: 'local',
    description:
      'Answer engine: `local` (offline retrieval and typed extraction, no model) or `openai` (any OpenAI-compatible chat-completions server: OpenAI, vLLM, Ollama, llama.cpp server).',
  },
  {
    name: 'LOCAL_SCORER',
    defaultValue: 'learned',
    description:
      'How the local engine ranks candidate answers: `learned` (the scorer trained by `npm run train`, weights in src/engine/local/model/weights.json) or `rules` (the earlier hand-weighted evidence).',
  },
  {
    name: 'OPENAI_BASE_URL',
    defaultValue: 'https://api.openai.com/v1',
    description:
      'Base address of the chat-completions server for `ENGINE=openai`, e.g. `http://localhost:11434/v1` for Ollama.',
  },
  {
    name: 'OPENAI_API_KEY',
    defaultValue: '(unset)',
    description: 'Sent as `Authorization: Bearer`; unset sends no header (local servers). Never logged.',
  },
  {
    name: 'OPENAI_MODEL',
    defaultValue: '(unset)',
    description: 'Model name passed to the server; required when `ENGINE=openai`.',
  },
  {
    name: 'OPENAI_VISION',
    defaultValue: 'false',
    description: 'Also send the relevant page images, for models that take images.',
  },
  {
    name: 'OPENAI_TIMEOUT_MS',
    defaultValue: '60000',
    description:
      'Time allowed for one request to the model server; a cell whose request times out ends ERROR.',
  },
  {
    name: 'OPENAI_MAX_RETRIES',
    defaultValue: '3',
    description:
      'Retries of a request answered 429 or 5xx or failing to connect, with exponential backoff (Retry-After honoured).',
  },
  {
    name: 'OPENAI_CONCURRENCY',
    defaultValue: '4',
    description: 'Requests in flight to the model server at once, per process.',
  },
  {
    name: 'SEARCH_PRICE',
    defaultValue: '1',
    description: 'Credits one `POST /v1/search` request costs; 0 makes search free.',
  },
  {
    name: 'EMBEDDINGS_BASE_URL',
    defaultValue: '(unset)',
    description:
      'Base address of an OpenAI-compatible `/embeddings` server. Set, vectorize jobs store page vectors and search fuses them with full-text ranking; unset, search is full-text only.',
  },
  {
    name: 'EMBEDDINGS_MODEL',
    defaultValue: '(unset)',
    description: 'Embedding model name; required when `EMBEDDINGS_BASE_URL` is set.',
  },
  {
    name: 'EMBEDDINGS_API_KEY',
    defaultValue: '(unset)',
    description:
      'Sent as `Authorization: Bearer` to the embeddings server; unset sends no header. Never logged.',
  },
  {
    name: 'EMBEDDINGS_IMAGES',
    defaultValue: 'false',
    description:
      'The embeddings model also takes images (inputs `{"image": "<data URL>"}`): page images are embedded and `image_url` queries are matched by vector instead of OCR and visual hash.',
  },
];

export class ConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`Invalid settings:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/** Parses every setting and reports all bad values at once, each by name. */
export function loadConfig(env: Env, cwd = process.cwd()): Config {
  const problems: string[] = [];
  const str = (name: string): string | null => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? null : v.trim();
  };
  const int = (name: string, def: number, min: number, max: number): number => {
    const raw = str(name);
    if (raw === null) return def;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      problems.push(`${name}=${JSON.stringify(raw)} must be a whole number from ${min} to ${max}`);
      return def;
    }
    return Number(raw);
  };

  const port = int('PORT', 8080, 0, 65535);
  const host = str('HOST') ?? '127.0.0.1';
  const dataDir = path.resolve(cwd, str('DATA_DIR') ?? './data');
  const dbPoolSize = int('DB_POOL_SIZE', 10, 1, 500);
  const rateLimitPerMin = int('RATE_LIMIT_PER_MIN', 600, 0, 1_000_000);
  const authFailuresPerMin = int('AUTH_FAILURES_PER_MIN', 30, 0, 1_000_000);
  const trustProxyRaw = str('TRUST_PROXY');
  let trustProxy: boolean | number | string[] = false;
  if (trustProxyRaw === null || trustProxyRaw === 'false') trustProxy = false;
  else if (trustProxyRaw === 'true') trustProxy = true;
  else if (/^\d+$/.test(trustProxyRaw)) trustProxy = Number(trustProxyRaw);
  else {
    const list = trustProxyRaw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (list.every((a) => /^[0-9a-fA-F:.]+(?:\/\d{1,3})?$/.test(a))) trustProxy = list;
    else
      problems.push(
        'TRUST_PROXY must be true, false, a number of hops, or a comma-separated list of addresses or CIDR ranges',
      );
  }
  const requestIdleTimeoutMs = int('REQUEST_IDLE_TIMEOUT_MS', 30_000, 0, 86_400_000);
  const requestBodyTimeoutMs = int('REQUEST_BODY_TIMEOUT_MS', 60_000, 0, 86_400_000);
  const uploadTimeoutMs = int('UPLOAD_TIMEOUT_MS', 3_600_000, 0, 86_400_000);
  const webhookTimeoutMs = int('WEBHOOK_TIMEOUT_MS', 10_000, 100, 600_000);
  const initialCredits = int('INITIAL_CREDITS', 1000, 0, 1_000_000_000);
  const slowQueryMs = int('SLOW_QUERY_MS', 1000, 0, 3_600_000);

  const databaseUrl = str('DATABASE_URL');
  if (databaseUrl !== null && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    // The value may hold a password: name the setting, never echo it.
    problems.push('DATABASE_URL must start with postgres:// or postgresql://');
  }

  const adminToken = str('ADMIN_TOKEN');
  if (adminToken !== null && adminToken.length < 16) {
    problems.push('ADMIN_TOKEN must be at least 16 characters (value not shown)');
  }
  const metricsToken = str('METRICS_TOKEN');
  if (metricsToken !== null && metricsToken.length < 16) {
    problems.push('METRICS_TOKEN must be at least 16 characters (value not shown)');
  }
  const workerMetricsPort =
    str('WORKER_METRICS_PORT') === null ? null : int('WORKER_METRICS_PORT', 0, 1, 65535);
  if (workerMetricsPort !== null && metricsToken === null) {
    problems.push(
      'WORKER_METRICS_PORT needs METRICS_TOKEN: the metrics listener is never open without a token',
    );
  }
  const shareSecret = str('SHARE_SECRET');
  if (shareSecret !== null && shareSecret.length < 32) {
    problems.push('SHARE_SECRET must be at least 32 characters (value not shown)');
  }

  const logLevelRaw = (str('LOG_LEVEL') ?? 'info').toLowerCase();
  let logLevel: LogLevel = 'info';
  if ((LOG_LEVELS as readonly string[]).includes(logLevelRaw)) logLevel = logLevelRaw as LogLevel;
  else problems.push(`LOG_LEVEL=${JSON.stringify(logLevelRaw)} must be one of ${LOG_LEVELS.join(', ')}`);

  let publicUrl =
    str('PUBLIC_URL') ?? `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${port}`;
  try {
    const u = new URL(publicUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('protocol');
    publicUrl = publicUrl.replace(/\/+$/, '');
  } catch {
    problems.push(`PUBLIC_URL=${JSON.stringify(publicUrl)} must be an http(s) URL`);
  }

  const bool = (name: string, def: boolean): boolean => {
    const raw = str(name);
    if (raw === null) return def;
    if (/^(true|1|yes)$/i.test(raw)) return true;
    if (/^(false|0|no)$/i.test(raw)) return false;
    problems.push(`${name}=${JSON.stringify(raw)} must be true or false`);
    return def;
  };
  const webhookAllowPrivate = bool('WEBHOOK_ALLOW_PRIVATE', false);
  const blobKind = str('BLOB_STORE') ?? 'local';
  let blob: BlobConfig = { kind: 'local', rootDir: path.join(dataDir, 'blobs') };
  if (blobKind === 's3') {
    const bucket = str('S3_BUCKET');
    if (!bucket) problems.push('S3_BUCKET is required when BLOB_STORE=s3');
    const endpoint = str('S3_ENDPOINT') ?? undefined;
    blob = {
      kind: 's3',
      bucket: bucket ?? '',
      endpoint,
      region: str('S3_REGION') ?? 'us-east-1',
      accessKeyId: str('S3_ACCESS_KEY_ID') ?? undefined,
      secretAccessKey: str('S3_SECRET_ACCESS_KEY') ?? undefined,
      forcePathStyle: bool('S3_FORCE_PATH_STYLE', endpoint !== undefined),
      prefix: str('S3_PREFIX') ?? undefined,
    };
  } else if (blobKind !== 'local') {
    problems.push(`BLOB_STORE=${JSON.stringify(blobKind)} must be local or s3`);
  }
  const workerConcurrency = int('WORKER_CONCURRENCY', 2, 1, 64);
  const workspaceTaskLimit = int('WORKSPACE_TASK_LIMIT', 0, 0, 1000);
  const runConcurrency = int('RUN_CONCURRENCY', 2, 1, 64);
  const engineThreads = int('ENGINE_THREADS', Math.min(4, Math.max(1, os.availableParallelism() - 1)), 0, 64);
  const ingestThreads = int('INGEST_THREADS', Math.max(1, os.availableParallelism()), 1, 64);
  const taskLeaseMs = int('TASK_LEASE_MS', 60_000, 1_000, 3_600_000);
  const shutdownGraceMs = int('SHUTDOWN_GRACE_MS', 10_000, 0, 3_600_000);
  const sweepIntervalMs = int('SWEEP_INTERVAL_MS', 43_200_000, 1_000, 2_147_483_647);
  const uploadSessionIdleMs = int('UPLOAD_SESSION_IDLE_MS', 86_400_000, 1_000, 2_592_000_000);
  const officeTimeoutMs = int('OFFICE_TIMEOUT_MS', 120_000, 1_000, 3_600_000);
  const MB = 1024 * 1024;
  const officeLimits: OfficeLimits = Object.freeze({
    maxUnzippedBytes: int('OFFICE_MAX_UNZIPPED_MB', 512, 1, 1_000_000) * MB,
    maxRatio: int('OFFICE_MAX_ZIP_RATIO', 100, 1, 1_000_000),
    maxEntries: int('OFFICE_MAX_ZIP_ENTRIES', 10_000, 1, 10_000_000),
    cpuSeconds: int('OFFICE_CPU_SECONDS', 90, 0, 86_400),
    memoryBytes: int('OFFICE_MEMORY_MB', 2048, 0, 1_000_000) * MB,
  });
  const diskFreeMinBytes = int('DISK_FREE_MIN_MB', 512, 0, 1_000_000_000) * MB;
  const renderDpi = int('RENDER_DPI', 150, 50, 600);

  /** A model server's base URL, without a trailing slash; it may carry credentials, so a problem names the setting and never echoes it. */
  const serviceUrl = (name: string, raw: string): string => {
    try {
      const u = new URL(raw);
      if ((u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password)
        return raw.replace(/\/+$/, '');
    } catch {}
    problems.push(`${name} must be an http(s) URL without user or password`);
    return raw;
  };

  const engineKind = (str('ENGINE') ?? 'local').toLowerCase();
  const scorer = (str('LOCAL_SCORER') ?? 'learned').toLowerCase();
  if (scorer !== 'rules' && scorer !== 'learned') problems.push('LOCAL_SCORER must be rules or learned');
  let engine: EngineConfig = { kind: 'local', scorer: scorer === 'rules' ? 'rules' : 'learned' };
  if (engineKind === 'openai') {
    const baseUrl = serviceUrl('OPENAI_BASE_URL', str('OPENAI_BASE_URL') ?? 'https://api.openai.com/v1');
    const model = str('OPENAI_MODEL');
    if (!model) problems.push('OPENAI_MODEL is required when ENGINE=openai');
    const openai = {
      kind: 'openai' as const,
      baseUrl,
      model: model ?? '',
      vision: bool('OPENAI_VISION', false),
      timeoutMs: int('OPENAI_TIMEOUT_MS', 60_000, 1_000, 3_600_000),
      maxRetries: int('OPENAI_MAX_RETRIES', 3, 0, 10),
      concurrency: int('OPENAI_CONCURRENCY', 4, 1, 256),
    };
    Object.defineProperty(openai, 'apiKey', { value: str('OPENAI_API_KEY'), enumerable: false });
    engine = Object.freeze(openai as typeof openai & { apiKey: string | null });
  } else if (engineKind !== 'local') {
    problems.push(`ENGINE=${JSON.stringify(engineKind)} must be local or openai`);
  }

  const searchPrice = int('SEARCH_PRICE', 1, 0, 1_000_000);
  let embeddings: EmbeddingsConfig | null = null;
  const embeddingsUrl = str('EMBEDDINGS_BASE_URL');
  if (embeddingsUrl !== null) {
    const baseUrl = serviceUrl('EMBEDDINGS_BASE_URL', embeddingsUrl);
    const model = str('EMBEDDINGS_MODEL');
    if (!model) problems.push('EMBEDDINGS_MODEL is required when EMBEDDINGS_BASE_URL is set');
    const e = { baseUrl, model: model ?? '', images: bool('EMBEDDINGS_IMAGES', false) };
    Object.defineProperty(e, 'apiKey', { value: str('EMBEDDINGS_API_KEY'), enumerable: false });
    embeddings = Object.freeze(e as typeof e & { apiKey: string | null });
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({
    port,
    host,
    dataDir,
    databaseUrl,
    dbPoolSize,
    adminToken,
    metricsToken,
    workerMetricsPort,
    shareSecret,
    publicUrl,
    rateLimitPerMin,
    authFailuresPerMin,
    trustProxy,
    requestIdleTimeoutMs,
    requestBodyTimeoutMs,
    uploadTimeoutMs,
    webhookAllowPrivate,
    webhookTimeoutMs,
    slowQueryMs,
    logLevel,
    initialCredits,
    blob,
    workerConcurrency,
    workspaceTaskLimit,
    runConcurrency,
    engineThreads,
    ingestThreads,
    taskLeaseMs,
    shutdownGraceMs,
    sweepIntervalMs,
    uploadSessionIdleMs,
    officeTimeoutMs,
    officeLimits,
    diskFreeMinBytes,
    renderDpi,
    engine,
    searchPrice,
    embeddings,
  });
}
