import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { readFile, rename, stat, unlink } from 'node:fs/promises';
import { createInterface } from 'node:readline/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import YAML from 'yaml';
import type {
  ExportFormat,
  ExportInclude,
  NewColumn,
  OutputType,
  Row,
  RunScope,
} from '../../packages/client/src/index.ts';
import { bytes, type Ctx, Failure, list, plural, printJson, textTable, UsageError } from './io.ts';
import { progress } from './progress.ts';

// ---------------------------------------------------------------------------------------------
// Table references: an id (rev_…) or the name of one live table
// ---------------------------------------------------------------------------------------------

export async function resolveTable(ctx: Ctx, ref: string | undefined): Promise<string> {
  if (!ref) throw new UsageError('name the table (its id, rev_…, or its name)', ctx.command);
  if (ref.startsWith('rev_')) return ref;
  const tables = (await ctx.client().listTables(ctx.signal)).filter((t) => t.archivedAt === null);
  const named = tables.filter((t) => t.name === ref);
  const found = named.length ? named : tables.filter((t) => t.name.toLowerCase() === ref.toLowerCase());
  if (found.length === 1) return found[0].id;
  if (found.length === 0) throw new Failure(`no table named "${ref}" in this workspace`);
  throw new Failure(
    `${found.length} tables are named "${ref}": use an id (${found.map((t) => t.id).join(', ')})`,
  );
}

// ---------------------------------------------------------------------------------------------
// table create --name N --columns columns.yaml|json
// ---------------------------------------------------------------------------------------------

const COLUMN_KEYS = ['name', 'prompt', 'outputType', 'config', 'creditRate', 'isCompositional'];

/** Reads a column file: a list of columns, or `{name?, columns: [...]}`; YAML or JSON. */
export async function readColumnFile(
  file: string,
  command: string,
): Promise<{ tableName?: string; columns: NewColumn[] }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new UsageError(`cannot read the column file ${file}`, command);
  }
  let doc: unknown;
  try {
    doc = YAML.parse(text);
  } catch (e) {
    throw new UsageError(
      `${file} is not valid YAML or JSON: ${(e as Error).message.split('\n')[0]}`,
      command,
    );
  }
  let tableName: string | undefined;
  let entries: unknown = doc;
  if (doc && typeof doc === 'object' && !Array.isArray(doc)) {
    const o = doc as { name?: unknown; columns?: unknown };
    if (o.name !== undefined && typeof o.name !== 'string')
      throw new UsageError(`${file}: name must be text`, command);
    tableName = o.name as string | undefined;
    entries = o.columns;
  }
  if (!Array.isArray(entries) || entries.length === 0) {
    throw new UsageError(
      `${file} must hold a list of columns (or columns: [...]), each with name and prompt`,
      command,
    );
  }
  const columns = entries.map((entry, i): NewColumn => {
    const where = `${file}: column ${i + 1}`;
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
      throw new UsageError(`${where} must be a mapping with name and prompt`, command);
    }
    const c = entry as Record<string, unknown>;
    const label = typeof c.name === 'string' ? `${where} (${c.name})` : where;
    const unknown = Object.keys(c).filter((k) => !COLUMN_KEYS.includes(k));
    if (unknown.length) {
      throw new UsageError(
        `${label}: unknown key ${unknown.join(', ')} (allowed: ${COLUMN_KEYS.join(', ')})`,
        command,
      );
    }
    if (typeof c.name !== 'string' || !c.name.trim())
      throw new UsageError(`${where}: name is required`, command);
    if (typeof c.prompt !== 'string' || !c.prompt.trim())
      throw new UsageError(`${label}: prompt is required`, command);
    if (c.outputType !== undefined && typeof c.outputType !== 'string') {
      throw new UsageError(`${label}: outputType must be text`, command);
    }
    if (c.creditRate !== undefined && typeof c.creditRate !== 'number') {
      throw new UsageError(`${label}: creditRate must be a number`, command);
    }
    if (c.isCompositional !== undefined && typeof c.isCompositional !== 'boolean') {
      throw new UsageError(`${label}: isCompositional must be true or false`, command);
    }
    const column: NewColumn = { name: c.name, prompt: c.prompt, sortOrder: i };
    // The service checks the type and names the allowed ones: its message is printed as is.
    if (c.outputType !== undefined) column.outputType = c.outputType as OutputType;
    if (c.config !== undefined)
      column.config = c.config === null || typeof c.config === 'string' ? c.config : JSON.stringify(c.config);
    if (c.creditRate !== undefined) column.creditRate = c.creditRate as number;
    if (c.isCompositional !== undefined) column.isCompositional = c.isCompositional as boolean;
    return column;
  });
  return { tableName, columns };
}

export async function tableCreateCommand(
  ctx: Ctx,
  values: { name?: string; columns?: string[] },
  positionals: string[],
): Promise<number> {
  if (positionals.length) throw new UsageError(`unexpected argument: ${positionals[0]}`, ctx.command);
  const files = values.columns ?? [];
  if (files.length !== 1) throw new UsageError('--columns FILE is required, once', ctx.command);
  const { tableName, columns } = await readColumnFile(files[0], ctx.command);
  const name = values.name ?? tableName;
  if (!name) throw new UsageError('--name is required (or a name: in the column file)', ctx.command);
  const client = ctx.client();
  const table = await client.createTable({ name }, ctx.signal);
  const created = [];
  for (const column of columns) {
    try {
      created.push(await client.addColumn(table.id, column, ctx.signal));
    } catch (e) {
      // Leave no half-made table behind: archive it, then report the service's refusal as is.
      await client.archiveTable(table.id).catch(() => {});
      ctx.err(`folio: column "${column.name}" was refused; table ${table.id} was archived.`);
      throw e;
    }
  }
  if (ctx.json) {
    printJson(ctx, { table, columns: created });
  } else {
    ctx.out(`Created table ${table.id} "${table.name}" with ${plural(created.length, 'column')}:`);
    ctx.out(
      textTable(
        ['COLUMN ID', 'TYPE', 'NAME'],
        created.map((c) => [c.id, c.outputType, c.name]),
      ),
    );
  }
  return 0;
}

// ---------------------------------------------------------------------------------------------
// rows add <table> <fileIds...|--all-files>
// ---------------------------------------------------------------------------------------------

export async function rowsAddCommand(
  ctx: Ctx,
  values: { 'all-files'?: boolean },
  positionals: string[],
): Promise<number> {
  const [ref, ...ids] = positionals;
  if (!ref) throw new UsageError('name the table', ctx.command);
  if (values['all-files'] && ids.length)
    throw new UsageError('give file ids or --all-files, not both', ctx.command);
  if (!values['all-files'] && ids.length === 0)
    throw new UsageError('give file ids or --all-files', ctx.command);
  for (const id of ids) {
    if (!id.startsWith('ds_') && !id.startsWith('bndl_')) {
      throw new UsageError(`${id} is neither a file id (ds_…) nor a bundle id (bndl_…)`, ctx.command);
    }
  }
  const client = ctx.client();
  const tableId = await resolveTable(ctx, ref);
  const body = await client.getTable(tableId, ctx.signal);
  const existing = new Set(body.rows.filter((r) => r.archivedAt === null).map((r) => r.subjectId));
  let subjects = ids;
  if (values['all-files']) {
    subjects = [];
    // Oldest first, so rows follow upload order.
    for await (const f of client.files({ sort: 'createdAt', signal: ctx.signal })) subjects.push(f.id);
  }
  subjects = [...new Set(subjects)];
  const fresh = subjects.filter((s) => !existing.has(s));
  const added: Row[] = [];
  let next = 0;
  const worker = async () => {
    while (next < fresh.length) {
      const subject = fresh[next++];
      added.push(await client.addRow(tableId, subject, ctx.signal));
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, fresh.length) }, worker));
  const already = subjects.length - fresh.length;
  if (ctx.json) {
    printJson(ctx, { tableId, added, alreadyThere: subjects.filter((s) => existing.has(s)) });
  } else {
    ctx.out(
      `Added ${plural(added.length, 'row')} to table ${tableId}${already ? ` (${already} already there)` : ''}.`,
    );
  }
  return 0;
}

// ---------------------------------------------------------------------------------------------
// run <table> [--rows ...] [--columns ...] [--wait] [--yes]
// ---------------------------------------------------------------------------------------------

export async function runCommand(
  ctx: Ctx,
  values: { rows?: string[]; columns?: string[]; wait?: boolean; yes?: boolean },
  positionals: string[],
): Promise<number> {
  const [ref, extra] = positionals;
  if (extra) throw new UsageError(`unexpected argument: ${extra}`, ctx.command);
  const client = ctx.client();
  const tableId = await resolveTable(ctx, ref);
  const rowRefs = list(values.rows);
  const columnRefs = list(values.columns);
  const scope: RunScope = {};
  if (rowRefs?.length || columnRefs?.length) {
    const body = await client.getTable(tableId, ctx.signal);
    if (rowRefs?.length) {
      scope.rowIds = rowRefs.map((r) => {
        if (r.startsWith('rrow_')) return r;
        const row = body.rows.find((x) => x.subjectId === r && x.archivedAt === null);
        if (!row)
          throw new Failure(`no row of table ${tableId} is ${r} (give row ids, file ids or bundle ids)`);
        return row.id;
      });
    }
    if (columnRefs?.length) {
      const live = body.columns.filter((c) => c.archivedAt === null);
      scope.columnIds = columnRefs.map((r) => {
        if (r.startsWith('rcol_')) return r;
        const col =
          live.find((c) => c.name === r) ?? live.find((c) => c.name.toLowerCase() === r.toLowerCase());
        if (!col) throw new Failure(`table ${tableId} has no column named "${r}"`);
        return col.id;
      });
    }
  }

  const [preview, ws] = await Promise.all([
    client.previewRun(tableId, scope, ctx.signal),
    client.workspace(ctx.signal),
  ]);
  const skipped = preview.skippedRowIds.length
    ? `; ${plural(preview.skippedRowIds.length, 'row')} skipped (documents still being read, or empty bundles)`
    : '';
  ctx.err(
    `Run on table ${tableId}: ${plural(preview.cells, 'cell')}, at most ${plural(preview.cost, 'credit')} (balance ${ws.balance})${skipped}.`,
  );
  if (preview.cells === 0) {
    if (ctx.json) printJson(ctx, { preview, run: null, cells: 0, skippedRowIds: preview.skippedRowIds });
    else ctx.out('Nothing to run.');
    return 0;
  }
  if (!values.yes) {
    if (!ctx.interactive) {
      throw new UsageError('a run spends credits: pass --yes to start it without a question', ctx.command);
    }
    const rl = createInterface({ input: ctx.stdin, output: ctx.stderr });
    let answer = '';
    try {
      rl.on('SIGINT', () => rl.close());
      answer = await rl.question('Start the run? [y/N] ', { signal: ctx.signal });
    } catch {
      answer = '';
    } finally {
      rl.close();
    }
    if (!/^y(es)?$/i.test(answer.trim())) throw new Failure('not started');
  }

  const started = await client.startRun(tableId, scope, ctx.signal);
  if (!started.run) {
    if (ctx.json) printJson(ctx, { preview, ...started });
    else ctx.out('Nothing to run: every row in scope was skipped.');
    return 0;
  }
  if (!values.wait) {
    if (ctx.json) printJson(ctx, { preview, ...started });
    else ctx.out(`Started run ${started.run.id} on table ${tableId}: ${plural(started.cells, 'cell')}.`);
    return 0;
  }

  const p = progress(ctx);
  const bar = p.bar('cells answered', started.run.totalCells, 'cells');
  let run = started.run;
  try {
    run = await client.waitForRun(tableId, started.run.id, {
      signal: ctx.signal,
      onProgress: ({ done, total, run: r }) => {
        bar.setTotal(total);
        bar.update(done, r.status.toLowerCase());
      },
    });
  } finally {
    p.stop();
  }
  const after = await client.workspace(ctx.signal);
  const body = await client.getTable(tableId, ctx.signal);
  const rowSet = new Set(scope.rowIds ?? []);
  const colSet = new Set(scope.columnIds ?? []);
  const whole = !scope.rowIds && !scope.columnIds;
  const touched = body.cells.filter(
    (c) => c.updatedAt >= run.createdAt && (whole || rowSet.has(c.rowId) || colSet.has(c.columnId)),
  );
  const answered = touched.filter((c) => c.status === 'SUCCESS').length;
  const failed = touched.filter((c) => c.status === 'ERROR').length;
  const spent = ws.balance - after.balance;
  if (ctx.json) {
    printJson(ctx, {
      preview,
      run,
      cells: run.totalCells,
      answered,
      failed,
      credits: spent,
      balance: after.balance,
    });
  } else {
    ctx.out(
      `Run ${run.id} ${run.status}: ${plural(run.totalCells, 'cell')} (${answered} answered, ${failed} failed); ` +
        `${plural(spent, 'credit')} spent (balance ${after.balance}).`,
    );
  }
  if (run.status !== 'SUCCESS') {
    ctx.err(`folio: run ${run.id} ended ${run.status}`);
    return 1;
  }
  return 0;
}

// ---------------------------------------------------------------------------------------------
// export <table> --format csv|xlsx|json [-o file] [--include ...] [--bom]
// ---------------------------------------------------------------------------------------------

const FORMATS: ExportFormat[] = ['csv', 'xlsx', 'json'];
const INCLUDES: ExportInclude[] = ['confidence', 'citations', 'status'];

export async function exportCommand(
  ctx: Ctx,
  values: { format?: string; output?: string; include?: string[]; bom?: boolean },
  positionals: string[],
): Promise<number> {
  const [ref, extra] = positionals;
  if (extra) throw new UsageError(`unexpected argument: ${extra}`, ctx.command);
  if (!ref) throw new UsageError('name the table', ctx.command);
  const format = values.format as ExportFormat | undefined;
  if (!format || !FORMATS.includes(format)) {
    throw new UsageError(`--format must be one of ${FORMATS.join(', ')}`, ctx.command);
  }
  const include = list(values.include) ?? [];
  for (const i of include) {
    if (!INCLUDES.includes(i as ExportInclude)) {
      throw new UsageError(`--include takes ${INCLUDES.join(', ')} (not ${i})`, ctx.command);
    }
  }
  if (values.bom && format !== 'csv') throw new UsageError('--bom applies to --format csv only', ctx.command);
  if (!values.output && format === 'xlsx' && ctx.stdout.isTTY) {
    throw new UsageError('XLSX is binary: write it to a file with -o FILE, or redirect stdout', ctx.command);
  }
  const tableId = await resolveTable(ctx, ref);
  const body = await ctx.client().exportTable(tableId, {
    format,
    include: include as ExportInclude[],
    bom: values.bom,
    signal: ctx.signal,
  });
  const source = Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>);
  if (!values.output) {
    for await (const chunk of source) {
      if (!ctx.stdout.write(chunk)) await once(ctx.stdout, 'drain');
    }
    return 0;
  }
  // Written beside the target and renamed at the end: a failed export leaves no half file.
  const partial = `${values.output}.partial`;
  try {
    await pipeline(source, createWriteStream(partial));
    await rename(partial, values.output);
  } catch (e) {
    await unlink(partial).catch(() => {});
    throw e;
  }
  const size = (await stat(values.output)).size;
  if (ctx.json) printJson(ctx, { tableId, format, file: values.output, bytes: size });
  else ctx.err(`Wrote ${values.output} (${bytes(size)}).`);
  return 0;
}
