import { glob, readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { FolioError, type Job } from '../../packages/client/src/index.ts';
import { type Ctx, plural, printJson, textTable, UsageError, wholeNumber } from './io.ts';
import { progress } from './progress.ts';

/** Extensions picked from a directory or a glob; a file named outright is sent whatever its name. */
const DOCUMENT_EXTENSIONS = new Set(['pdf', 'doc', 'docx', 'pptx', 'xlsx', 'jpg', 'jpeg', 'png', 'webp']);

const isDocument = (file: string) => DOCUMENT_EXTENSIONS.has(path.extname(file).slice(1).toLowerCase());

/** The files the arguments name: files as given, documents found under directories and by globs. */
export async function expandInputs(
  inputs: string[],
  command: string,
): Promise<{ files: string[]; skipped: string[] }> {
  // Keyed by real path: a file named twice (by a directory and a glob, or through a link) goes once.
  const files = new Map<string, string>();
  const add = async (file: string) => {
    const real = await realpath(file);
    if (!files.has(real)) files.set(real, file);
  };
  const skipped: string[] = [];
  const consider = async (file: string) => {
    if (isDocument(file)) await add(file);
    else skipped.push(file);
  };
  const seen = new Set<string>();
  const walk = async (dir: string): Promise<void> => {
    // Symbolic links are followed; a directory reached twice (a link loop) is walked once.
    const real = await realpath(dir);
    if (seen.has(real)) return;
    seen.add(real);
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const full = path.join(dir, e.name);
      const st = e.isSymbolicLink() ? await stat(full).catch(() => null) : e;
      if (st?.isDirectory()) await walk(full);
      else if (st?.isFile()) await consider(full);
    }
  };
  for (const input of inputs) {
    const st = await stat(input).catch(() => null);
    if (st?.isDirectory()) {
      await walk(input);
    } else if (st?.isFile()) {
      await add(input);
    } else if (/[*?[\]{}]/.test(input)) {
      const matched: string[] = [];
      for await (const m of glob(input)) matched.push(m);
      matched.sort();
      let any = false;
      for (const m of matched) {
        if ((await stat(m).catch(() => null))?.isFile()) {
          any = true;
          await consider(m);
        }
      }
      if (!any) throw new UsageError(`no file matches ${input}`, command);
    } else {
      throw new UsageError(`no such file or directory: ${input}`, command);
    }
  }
  return { files: [...files.values()], skipped };
}

interface Outcome {
  path: string;
  name: string;
  size: number;
  jobId: string | null;
  fileId: string | null;
  status: string;
  statusText: string | null;
  pages: number | null;
  error: { status: number; message: string } | null;
}

/** Runs `fn` over `items`, `n` at a time, in order of start. */
async function pool<T>(
  items: T[],
  n: number,
  signal: AbortSignal,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !signal.aborted) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
}

export async function uploadCommand(
  ctx: Ctx,
  values: { concurrency?: string; wait?: boolean },
  positionals: string[],
): Promise<number> {
  const command = ctx.command;
  if (positionals.length === 0) throw new UsageError('name at least one file, directory or glob', command);
  const concurrency = wholeNumber(values.concurrency, '--concurrency', command) ?? 4;
  if (concurrency > 32) throw new UsageError('--concurrency is at most 32', command);
  const { files, skipped } = await expandInputs(positionals, command);
  if (files.length === 0) {
    throw new UsageError(
      `no documents to upload${skipped.length ? ` (skipped ${plural(skipped.length, 'file')} that are not documents)` : ''}`,
      command,
    );
  }
  const client = ctx.client();
  const wait = Boolean(values.wait);
  // Credits spent are read off the workspace balance (a Read key may read it): the balance
  // before, the balance once every job has finished. Ingest costs 1 credit per page.
  const before = wait ? (await client.workspace(ctx.signal)).balance : null;

  const sizes = await Promise.all(files.map(async (f) => (await stat(f)).size));
  const p = progress(ctx);
  if (skipped.length) {
    p.log(
      `Skipping ${plural(skipped.length, 'file')} that ${skipped.length === 1 ? 'is' : 'are'} not a document: ${skipped.map((s) => path.basename(s)).join(', ')}`,
    );
  }
  const overall = p.bar(wait ? 'all files (read)' : 'all files (sent)', files.length, 'files');
  const outcomes: Outcome[] = files.map((f, i) => ({
    path: f,
    name: path.basename(f),
    size: sizes[i],
    jobId: null,
    fileId: null,
    status: 'PENDING',
    statusText: null,
    pages: null,
    error: null,
  }));
  let finished = 0;
  let failed = 0;

  try {
    await pool(outcomes, concurrency, ctx.signal, async (o) => {
      const bar = p.bar(o.name, o.size, 'bytes');
      try {
        let job: Job = await client.uploadFile(o.path, {
          signal: ctx.signal,
          onProgress: ({ loaded }) => bar.update(loaded, 'sending'),
        });
        o.jobId = job.id;
        o.fileId = job.fileId ?? null;
        o.status = job.status;
        bar.update(o.size, wait ? 'queued' : 'sent');
        if (wait) {
          job = await client.waitForJob(job.id, {
            signal: ctx.signal,
            onProgress: (j) => bar.status(j.status === 'IN_PROGRESS' ? 'reading' : j.status.toLowerCase()),
          });
          o.status = job.status;
          o.statusText = job.statusText;
          if (o.fileId) {
            // An ERROR job keeps (and was charged for) the pages it read; the file may be gone, though.
            o.pages = await client.getFile(o.fileId, ctx.signal).then(
              (f) => f.itemCount,
              (e) => {
                if (e instanceof FolioError && e.status === 404) return job.status === 'SUCCESS' ? null : 0;
                throw e;
              },
            );
          }
          if (job.status === 'ERROR') {
            failed++;
            p.log(`${o.name}: ERROR ${job.statusText ?? ''}`.trimEnd());
          } else {
            p.log(`${o.name}: read, ${plural(o.pages ?? 0, 'page')} (${o.fileId})`);
          }
        } else {
          p.log(`${o.name}: sent (${o.fileId}, job ${o.jobId})`);
        }
      } catch (e) {
        if (!(e instanceof FolioError)) throw e;
        failed++;
        o.status = 'REFUSED';
        o.error = { status: e.status, message: e.error };
        p.log(`${o.name}: refused: ${e.error} (HTTP ${e.status})`);
      } finally {
        bar.done();
        finished++;
        overall.update(finished, failed ? `${failed} failed` : '');
      }
    });
  } finally {
    p.stop();
  }

  const after = wait ? (await client.workspace(ctx.signal)).balance : null;
  const pages = wait ? outcomes.reduce((n, o) => n + (o.pages ?? 0), 0) : null;
  const credits = before !== null && after !== null ? before - after : null;
  const sent = outcomes.filter((o) => o.jobId).length;

  if (ctx.json) {
    printJson(ctx, {
      files: outcomes.map(
        ({ path: file, name, size, fileId, jobId, status, statusText, pages: n, error }) => ({
          path: file,
          name,
          size,
          fileId,
          jobId,
          status,
          statusText,
          pages: n,
          error,
        }),
      ),
      uploaded: sent,
      failed,
      skipped,
      pages,
      credits,
      balance: after,
    });
  } else {
    ctx.out(
      textTable(
        ['FILE ID', 'STATUS', 'PAGES', 'NAME'],
        outcomes.map((o) => [
          o.fileId ?? '-',
          o.status,
          o.pages === null ? '-' : String(o.pages),
          o.error ? `${o.name}: ${o.error.message}` : o.statusText ? `${o.name}: ${o.statusText}` : o.name,
        ]),
      ),
    );
    const head = `${plural(sent, 'file')} uploaded${failed ? `, ${failed} failed` : ''}`;
    ctx.out(
      wait
        ? `${head}; ${plural(pages ?? 0, 'page')} read; ${plural(credits ?? 0, 'credit')} spent (balance ${after}).`
        : `${head}; the service is reading them (pass --wait to wait and count pages and credits).`,
    );
  }
  return failed ? 1 : 0;
}
