import { parseArgs } from 'node:util';

/**
 * `folio`: a thin client of the admin API (x-admin-token) and the public API (x-api-key).
 * Prints the JSON response; exits 1 on any refusal, with the server's message on stderr.
 */
const USAGE = `Usage: folio <command> [options]

Admin (needs ADMIN_TOKEN):
  workspace create --name NAME [--tier starter|bronze|silver|gold] [--credits N] [--spend-cap N]
  workspace show WORKSPACE_ID
  workspace update WORKSPACE_ID [--name NAME] [--tier TIER] [--spend-cap N|none]
  credits grant WORKSPACE_ID AMOUNT          (AMOUNT may be negative)
  key create WORKSPACE_ID [--level read|read_write] [--expires-at EPOCH_MS]
  key revoke KEY_ID

Public API (needs FOLIO_API_KEY):
  tables list WORKSPACE_ID
  api METHOD PATH [--data JSON]              (any endpoint, e.g. api GET /v2/workspaces/wks_…/tables)

Environment: FOLIO_URL (default http://127.0.0.1:$PORT, PORT default 8080), ADMIN_TOKEN, FOLIO_API_KEY.
`;

class UsageError extends Error {}

interface Call {
  method: string;
  path: string;
  body?: unknown;
  auth: 'admin' | 'key';
}

function int(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) throw new UsageError(`${name} must be a whole number`);
  return Number(value);
}

function need(value: string | undefined, what: string): string {
  if (!value) throw new UsageError(`missing ${what}`);
  return value;
}

export function parseCommand(argv: string[]): Call {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      tier: { type: 'string' },
      credits: { type: 'string' },
      'spend-cap': { type: 'string' },
      level: { type: 'string' },
      'expires-at': { type: 'string' },
      data: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [group, verb, a, b] = positionals;
  const cap = values['spend-cap'] === 'none' ? null : int(values['spend-cap'], '--spend-cap');
  switch (`${group} ${verb}`) {
    case 'workspace create':
      return {
        method: 'POST',
        path: '/admin/workspaces',
        auth: 'admin',
        body: {
          name: need(values.name, '--name'),
          tier: values.tier,
          credits: int(values.credits, '--credits'),
          spendCap: cap,
        },
      };
    case 'workspace show':
      return { method: 'GET', path: `/admin/workspaces/${need(a, 'WORKSPACE_ID')}`, auth: 'admin' };
    case 'workspace update':
      return {
        method: 'PATCH',
        path: `/admin/workspaces/${need(a, 'WORKSPACE_ID')}`,
        auth: 'admin',
        body: { name: values.name, tier: values.tier, spendCap: cap },
      };
    case 'credits grant':
      return {
        method: 'POST',
        path: `/admin/workspaces/${need(a, 'WORKSPACE_ID')}/credits`,
        auth: 'admin',
        body: { amount: int(need(b, 'AMOUNT'), 'AMOUNT') },
      };
    case 'key create':
      return {
        method: 'POST',
        path: `/admin/workspaces/${need(a, 'WORKSPACE_ID')}/keys`,
        auth: 'admin',
        body: {
          level: values.level ?? 'read_write',
          expiresAt: int(values['expires-at'], '--expires-at') ?? null,
        },
      };
    case 'key revoke':
      return { method: 'DELETE', path: `/admin/keys/${need(a, 'KEY_ID')}`, auth: 'admin' };
    case 'tables list':
      return { method: 'GET', path: `/v2/workspaces/${need(a, 'WORKSPACE_ID')}/tables`, auth: 'key' };
    default:
      if (group === 'api' && verb && a) {
        return {
          method: verb.toUpperCase(),
          path: a,
          auth: 'key',
          body: values.data ? JSON.parse(values.data) : undefined,
        };
      }
      throw new UsageError(group ? `unknown command: ${positionals.join(' ')}` : 'no command given');
  }
}

async function run(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE);
    return argv.length === 0 ? 1 : 0;
  }
  const call = parseCommand(argv);
  const base = (env.FOLIO_URL || `http://127.0.0.1:${env.PORT || 8080}`).replace(/\/+$/, '');
  const secret = call.auth === 'admin' ? env.ADMIN_TOKEN : env.FOLIO_API_KEY;
  if (!secret) throw new UsageError(`${call.auth === 'admin' ? 'ADMIN_TOKEN' : 'FOLIO_API_KEY'} is not set`);
  const headers: Record<string, string> = { [call.auth === 'admin' ? 'x-admin-token' : 'x-api-key']: secret };
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${call.path}`, {
    method: call.method,
    headers,
    body: call.body === undefined ? undefined : JSON.stringify(call.body),
  });
  const text = await res.text();
  if (!res.ok) {
    process.stderr.write(`folio: ${res.status} ${text}\n`);
    return 1;
  }
  process.stdout.write(`${text}\n`);
  return 0;
}

run(process.argv.slice(2), process.env).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(
      `folio: ${err instanceof UsageError ? `${err.message}\n\n${USAGE}` : (err as Error).message}\n`,
    );
    process.exit(2);
  },
);
