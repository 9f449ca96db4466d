import type { FileRecord } from '../../packages/client/src/index.ts';
import { bytes, type Ctx, list, printJson, textTable, UsageError, wholeNumber } from './io.ts';

/** `folio files list [--limit N] [--types doc,image]`: newest first. */
export async function filesListCommand(
  ctx: Ctx,
  values: { limit?: string; types?: string },
  positionals: string[],
): Promise<number> {
  if (positionals.length) throw new UsageError(`unexpected argument: ${positionals[0]}`, ctx.command);
  const limit = wholeNumber(values.limit, '--limit', ctx.command);
  const files: FileRecord[] = [];
  for await (const f of ctx
    .client()
    .files({ types: values.types, signal: ctx.signal, pageSize: Math.min(limit ?? 100, 100) })) {
    files.push(f);
    if (limit !== undefined && files.length >= limit) break;
  }
  if (ctx.json) {
    printJson(ctx, files);
    return 0;
  }
  if (files.length === 0) {
    ctx.err('No files.');
    return 0;
  }
  ctx.out(
    textTable(
      ['FILE ID', 'PAGES', 'SIZE', 'UPLOADED', 'NAME'],
      files.map((f) => [
        f.id,
        String(f.itemCount),
        bytes(f.fileSize),
        new Date(f.createdAt).toISOString().replace(/\.\d+Z$/, 'Z'),
        f.fileName,
      ]),
    ),
  );
  return 0;
}

/** `folio search "question" [--limit N] [--files ds_a,ds_b]`: pages ranked for the question. */
export async function searchCommand(
  ctx: Ctx,
  values: { limit?: string; files?: string[] },
  positionals: string[],
): Promise<number> {
  const question = positionals.join(' ').trim();
  if (!question) throw new UsageError('give the question to search for', ctx.command);
  const limit = wholeNumber(values.limit, '--limit', ctx.command);
  if (limit !== undefined && limit > 100) throw new UsageError('--limit is at most 100', ctx.command);
  const client = ctx.client();
  const hits = await client.search(question, { limit, fileIds: list(values.files), signal: ctx.signal });
  if (ctx.json) {
    printJson(ctx, hits);
    return 0;
  }
  if (hits.length === 0) {
    ctx.err('No page matches.');
    return 0;
  }
  const names = new Map<string, string>();
  await Promise.all(
    [...new Set(hits.map((h) => h.datasetId))].map(async (id) => {
      const name = await client.getFile(id, ctx.signal).then(
        (f) => f.fileName,
        () => '',
      );
      names.set(id, name);
    }),
  );
  ctx.out(
    textTable(
      ['SCORE', 'FILE ID', 'PAGE', 'NAME'],
      hits.map((h) => [h.score.toFixed(3), h.datasetId, String(h.col), names.get(h.datasetId) ?? '']),
    ),
  );
  return 0;
}
