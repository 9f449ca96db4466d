import { FolioAdminClient, FolioClient } from '../../packages/client/src/index.ts';

/** A mistake in the command line (exit 2): the message, then the command's usage, on stderr. */
export class UsageError extends Error {
  /** The command whose usage to show (its words, e.g. 'table create'); null: the overview. */
  readonly command: string | null;
  constructor(message: string, command: string | null = null) {
    super(message);
    this.command = command;
  }
}

/** What a command sees of the world: its streams, the environment, and how to reach the service. */
export interface Ctx {
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
  /** `--json`: machine-readable data on stdout. */
  json: boolean;
  /** Progress bars (and carriage returns): only when stdout and stderr are terminals and NO_COLOR is unset. */
  bars: boolean;
  /** A person can answer a question: stdin and stderr are terminals. */
  interactive: boolean;
  /** Fires on Ctrl-C: polling and uploads stop. */
  signal: AbortSignal;
  baseUrl: string;
  /** The command being run (its words), for usage errors. */
  command: string;
  client(): FolioClient;
  admin(): FolioAdminClient;
  out(text: string): void;
  err(text: string): void;
}

export interface Streams {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
}

export function makeCtx(
  env: NodeJS.ProcessEnv,
  streams: Streams,
  opts: { json: boolean; url?: string; workspace?: string; command: string; signal: AbortSignal },
): Ctx {
  const baseUrl = (opts.url || env.FOLIO_URL || `http://127.0.0.1:${env.PORT || 8080}`).replace(/\/+$/, '');
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  const dumb = env.TERM === 'dumb';
  const bars = Boolean(streams.stdout.isTTY && streams.stderr.isTTY) && !noColor && !dumb;
  let client: FolioClient | null = null;
  let admin: FolioAdminClient | null = null;
  return {
    env,
    ...streams,
    json: opts.json,
    bars,
    interactive: Boolean(streams.stdin.isTTY && streams.stderr.isTTY),
    signal: opts.signal,
    baseUrl,
    command: opts.command,
    client() {
      if (!client) {
        const apiKey = env.FOLIO_API_KEY;
        if (!apiKey) throw new UsageError('FOLIO_API_KEY is not set: export the API key first', opts.command);
        const workspaceId = opts.workspace || env.FOLIO_WORKSPACE || undefined;
        client = new FolioClient({ baseUrl, apiKey, workspaceId });
      }
      return client;
    },
    admin() {
      if (!admin) {
        const adminToken = env.ADMIN_TOKEN;
        if (!adminToken) throw new UsageError('ADMIN_TOKEN is not set: admin commands need it', opts.command);
        admin = new FolioAdminClient({ baseUrl, adminToken });
      }
      return admin;
    },
    out(text) {
      streams.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    },
    err(text) {
      streams.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
    },
  };
}

/** Prints `value` as JSON on stdout. */
export function printJson(ctx: Ctx, value: unknown): void {
  ctx.out(JSON.stringify(value, null, 2));
}

/** A whole number >= min, or a usage error naming the option. */
export function wholeNumber(
  value: string | undefined,
  name: string,
  command: string,
  min = 1,
): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value) || Number(value) < min) {
    throw new UsageError(
      `${name} must be a whole number${min > -Infinity ? ` of at least ${min}` : ''}`,
      command,
    );
  }
  return Number(value);
}

/** Comma-separated values, repeated options merged: `--rows a,b --rows c` is [a, b, c]. */
export function list(values: string | string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  const all = (Array.isArray(values) ? values : [values])
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  return all;
}

/** A left-aligned text table, columns separated by two spaces. */
export function textTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

/** A failure that is not a refusal by the service (a table name that matches nothing, a declined prompt): exit 1. */
export class Failure extends Error {}
