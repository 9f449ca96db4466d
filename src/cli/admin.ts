import { type Ctx, UsageError, wholeNumber } from './io.ts';

/**
 * The commands folio had before issue 16, unchanged in behaviour: the admin API (ADMIN_TOKEN),
 * `tables list` and the raw `api` verb. Each prints the service's JSON response as is.
 */

function need(value: string | undefined, what: string, ctx: Ctx): string {
  if (!value) throw new UsageError(`missing ${what}`, ctx.command);
  return value;
}

function spendCap(value: string | undefined, ctx: Ctx): number | null | undefined {
  if (value === 'none') return null;
  return wholeNumber(value, '--spend-cap', ctx.command, 0);
}

const print = (ctx: Ctx, envelope: unknown) => ctx.out(JSON.stringify(envelope));

type Values = Record<string, string | boolean | string[] | undefined>;
const str = (v: Values[string]) => (typeof v === 'string' ? v : undefined);

export async function adminCommand(ctx: Ctx, values: Values, positionals: string[]): Promise<number> {
  const [a, b] = positionals;
  switch (ctx.command) {
    case 'workspace create': {
      const admin = ctx.admin();
      print(
        ctx,
        await admin.createWorkspace({
          name: need(str(values.name), '--name', ctx),
          tier: str(values.tier) as 'silver' | undefined,
          credits: wholeNumber(str(values.credits), '--credits', ctx.command, 0),
          spendCap: spendCap(str(values['spend-cap']), ctx),
        }),
      );
      return 0;
    }
    case 'workspace show':
      print(ctx, await ctx.admin().getWorkspace(need(a, 'WORKSPACE_ID', ctx)));
      return 0;
    case 'workspace update':
      print(
        ctx,
        await ctx.admin().updateWorkspace(need(a, 'WORKSPACE_ID', ctx), {
          name: str(values.name),
          tier: str(values.tier) as 'silver' | undefined,
          spendCap: spendCap(str(values['spend-cap']), ctx),
        }),
      );
      return 0;
    case 'credits grant': {
      const id = need(a, 'WORKSPACE_ID', ctx);
      const amount = wholeNumber(need(b, 'AMOUNT', ctx), 'AMOUNT', ctx.command, Number.MIN_SAFE_INTEGER)!;
      print(ctx, await ctx.admin().grantCredits(id, amount));
      return 0;
    }
    case 'key create': {
      const id = need(a, 'WORKSPACE_ID', ctx);
      const level = str(values.level) ?? 'read_write';
      if (level !== 'read' && level !== 'read_write')
        throw new UsageError('--level is read or read_write', ctx.command);
      const expiresAt = wholeNumber(str(values['expires-at']), '--expires-at', ctx.command, 0) ?? null;
      print(ctx, await ctx.admin().createKey(id, { level, expiresAt }));
      return 0;
    }
    case 'key revoke':
      print(ctx, await ctx.admin().revokeKey(need(a, 'KEY_ID', ctx)));
      return 0;
    default:
      throw new UsageError(`unknown command: ${ctx.command}`);
  }
}

/** `folio tables list [WORKSPACE_ID]`: the list envelope as JSON. */
export async function tablesListCommand(ctx: Ctx, _values: Values, positionals: string[]): Promise<number> {
  const client = ctx.client();
  const workspaceId = positionals[0] ?? (await client.workspaceId(ctx.signal));
  const res = await client.request('GET', `/v2/workspaces/${encodeURIComponent(workspaceId)}/tables`, {
    signal: ctx.signal,
  });
  ctx.out(await res.text());
  return 0;
}

/** `folio api METHOD PATH [--data JSON]`: any endpoint with the API key; prints the body as is. */
export async function apiCommand(ctx: Ctx, values: Values, positionals: string[]): Promise<number> {
  const [method, path, extra] = positionals;
  if (!method || !path) throw new UsageError('api takes METHOD and PATH', ctx.command);
  if (extra) throw new UsageError(`unexpected argument: ${extra}`, ctx.command);
  const data = str(values.data);
  if (data !== undefined) {
    try {
      JSON.parse(data);
    } catch {
      throw new UsageError('--data must be JSON', ctx.command);
    }
  }
  const res = await ctx.client().request(method.toUpperCase(), path, {
    signal: ctx.signal,
    ...(data !== undefined ? { body: data, headers: { 'content-type': 'application/json' } } : {}),
  });
  ctx.out(await res.text());
  return 0;
}
