import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { access, copyFile, link, mkdir, open, rm } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export class OfficeConversionError extends Error {
  override name = 'OfficeConversionError';
}

export interface ConvertOptions {
  outDir: string;
  /** LibreOffice user profile; concurrent workers must each pass their own. */
  profileDir: string;
  timeoutMs?: number;
  /**
   * CPU seconds the converter's processes may each use (RLIMIT_CPU) and the address space
   * they may each map (RLIMIT_AS), so a hostile document that parses slowly or balloons is
   * stopped by the kernel, not only by the wall-clock timeout. Unset: no limit.
   */
  cpuSeconds?: number;
  memoryBytes?: number;
  signal?: AbortSignal;
  /** Converter executable; tests point it at fakes. */
  binary?: string;
}

const DEFAULT_TIMEOUT_MS = 120_000;
const OUTPUT_TAIL_CHARS = 500;
const FALLBACK_BINARIES = ['/usr/bin/soffice', '/usr/lib/libreoffice/program/soffice'];
const PRLIMIT_BINARIES = ['/usr/bin/prlimit', '/bin/prlimit'];

let conversions = 0;

/** Converter processes started by this process so far (tests check a refused file never got one). */
export function conversionsStarted(): number {
  return conversions;
}

/** One LibreOffice per profile at a time: a second instance on a profile hands off to the first or fails. */
const profileQueues = new Map<string, Promise<unknown>>();

/**
 * Converts a Word/PowerPoint/Excel file to PDF with headless LibreOffice and returns the PDF
 * path inside outDir. The PDF is only trusted once it exists and starts with %PDF: soffice
 * exits 0 even when it converted nothing.
 */
export async function convertToPdf(inputPath: string, opts: ConvertOptions): Promise<string> {
  const key = path.resolve(opts.profileDir);
  const previous = profileQueues.get(key) ?? Promise.resolve();
  let started = false;
  const run = previous.then(() => {
    started = true;
    return convertNow(inputPath, opts);
  });
  const tail = run.catch(() => {});
  profileQueues.set(key, tail);
  void tail.then(() => {
    if (profileQueues.get(key) === tail) profileQueues.delete(key);
  });
  const signal = opts.signal;
  if (!signal) return run;
  // Aborting while queued answers at once; while converting, only after the group is dead,
  // so the caller never cleans up under a live converter.
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      if (!started) reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    run.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export async function isOfficeAvailable(): Promise<boolean> {
  return (await findSoffice()) !== null;
}

async function convertNow(inputPath: string, opts: ConvertOptions): Promise<string> {
  opts.signal?.throwIfAborted();
  const binary = opts.binary ?? (await findSoffice());
  if (!binary) {
    // Where it was looked for is the operator's business (README), not the job's statusText.
    throw new OfficeConversionError('LibreOffice is not installed on this server');
  }
  const outDir = path.resolve(opts.outDir);
  await mkdir(outDir, { recursive: true });
  // soffice names its output after the input, so a name we chose makes the PDF path predictable
  // and keeps spaces, unicode and leading dashes out of its argument parsing.
  const base = `folio-${randomUUID()}`;
  const input = path.join(outDir, base + safeExtension(inputPath));
  const output = path.join(outDir, `${base}.pdf`);
  await linkOrCopy(path.resolve(inputPath), input);
  try {
    const args = [
      `-env:UserInstallation=${pathToFileURL(path.resolve(opts.profileDir)).href}`,
      '--headless',
      '--norestore',
      '--nologo',
      '--nolockcheck',
      '--convert-to',
      'pdf',
      '--outdir',
      outDir,
      input,
    ];
    const [command, ...commandArgs] = await withLimits([binary, ...args], opts);
    conversions++;
    const result = await runGroup(command, commandArgs, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, opts.signal);
    if (result.timedOut) {
      throw new OfficeConversionError(
        `LibreOffice did not finish within ${opts.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms and was killed${outputNote(result.output)}`,
      );
    }
    opts.signal?.throwIfAborted();
    if (!(await looksLikePdf(output))) {
      const how = result.code === null ? `was killed by ${result.signal}` : `exited with code ${result.code}`;
      const budget =
        (opts.cpuSeconds || opts.memoryBytes) && (result.code === null || result.code > 0)
          ? `; it may have run out of its CPU-time or memory budget${budgetNote(opts)}`
          : '';
      throw new OfficeConversionError(
        `LibreOffice produced no PDF for ${path.basename(inputPath)} (it ${how}${budget})${outputNote(result.output)}`,
      );
    }
    return output;
  } catch (err) {
    await rm(output, { force: true });
    throw err;
  } finally {
    await rm(input, { force: true });
  }
}

/**
 * The command wrapped so the kernel enforces the budget on it and everything it starts
 * (limits are inherited): util-linux `prlimit`, which execs the command in place so it stays
 * the group leader runGroup kills; without it, the shell's `ulimit` does the same.
 */
async function withLimits(command: string[], opts: ConvertOptions): Promise<string[]> {
  const cpu = opts.cpuSeconds && opts.cpuSeconds > 0 ? Math.ceil(opts.cpuSeconds) : null;
  const mem = opts.memoryBytes && opts.memoryBytes > 0 ? Math.floor(opts.memoryBytes) : null;
  if (cpu === null && mem === null) return command;
  const prlimit = await findExecutable(PRLIMIT_BINARIES);
  if (prlimit) {
    return [
      prlimit,
      ...(cpu !== null ? [`--cpu=${cpu}`] : []),
      ...(mem !== null ? [`--as=${mem}`] : []),
      '--',
      ...command,
    ];
  }
  const limits = [
    ...(cpu !== null ? [`ulimit -t ${cpu}`] : []),
    ...(mem !== null ? [`ulimit -v ${Math.floor(mem / 1024)}`] : []),
  ];
  return ['/bin/sh', '-c', `${limits.join('; ')}; exec "$0" "$@"`, ...command];
}

function budgetNote(opts: ConvertOptions): string {
  const parts = [
    ...(opts.cpuSeconds ? [`${opts.cpuSeconds} CPU seconds`] : []),
    ...(opts.memoryBytes ? [`${Math.round(opts.memoryBytes / (1024 * 1024))} MB of memory`] : []),
  ];
  return parts.length > 0 ? ` of ${parts.join(' and ')}` : '';
}

interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
  timedOut: boolean;
}

/**
 * Runs the converter as the leader of its own process group so a hang can be ended with one
 * SIGKILL to the group: soffice is a shell wrapper around oosplash around soffice.bin.
 */
function runGroup(
  binary: string,
  args: string[],
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    // soffice reports some failures on stdout, so both streams feed the tail.
    let output = '';
    const keepTail = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-4 * OUTPUT_TAIL_CHARS);
    };
    child.stdout.on('data', keepTail);
    child.stderr.on('data', keepTail);
    let timedOut = false;
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // ESRCH: the group is already gone.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    const onAbort = () => killGroup();
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    let settled = false;
    let grace: NodeJS.Timeout | undefined;
    child.once('error', (err) => {
      done();
      if (settled) return;
      settled = true;
      reject(new OfficeConversionError(`cannot start ${binary}: ${err.message}`));
    });
    child.once('exit', () => {
      done();
      // Anything the converter left behind in its group is an orphan nobody will wait for.
      killGroup();
      // Something outside the group may still hold the pipes; do not wait on it forever.
      grace = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, 1000);
    });
    child.once('close', (code, sig) => {
      clearTimeout(grace);
      if (settled) return;
      settled = true;
      resolve({ code, signal: sig, output, timedOut });
    });
  });
}

function outputNote(output: string): string {
  const lines = output
    .split('\n')
    .filter((l) => l.trim() && !l.includes('failed to launch javaldx'))
    .join('\n')
    .trim();
  return lines ? `: ${lines.slice(-OUTPUT_TAIL_CHARS)}` : '';
}

async function looksLikePdf(file: string): Promise<boolean> {
  try {
    const fh = await open(file, 'r');
    try {
      const head = Buffer.alloc(4);
      const { bytesRead } = await fh.read(head, 0, 4, 0);
      return bytesRead === 4 && head.toString('latin1') === '%PDF';
    } finally {
      await fh.close();
    }
  } catch {
    return false;
  }
}

/** LibreOffice sniffs content anyway; a plain extension only helps it pick the import filter. */
function safeExtension(file: string): string {
  const ext = path.extname(file).toLowerCase();
  return /^\.[a-z0-9]{1,8}$/.test(ext) ? ext : '';
}

async function linkOrCopy(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch {
    // Different filesystem, or one without hard links.
    await copyFile(from, to);
  }
}

let foundSoffice: string | undefined;
const foundExecutables = new Map<string, string | null>();

async function findExecutable(candidates: string[]): Promise<string | null> {
  const key = candidates.join(':');
  if (foundExecutables.has(key)) return foundExecutables.get(key)!;
  let found: string | null = null;
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK);
      found = candidate;
      break;
    } catch {}
  }
  foundExecutables.set(key, found);
  return found;
}

/** Only a hit is cached, so installing LibreOffice does not need a restart. */
async function findSoffice(): Promise<string | null> {
  if (foundSoffice) return foundSoffice;
  const onPath = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const candidate of [...onPath.map((dir) => path.join(dir, 'soffice')), ...FALLBACK_BINARIES]) {
    try {
      await access(candidate, constants.X_OK);
      foundSoffice = candidate;
      return candidate;
    } catch {}
  }
  return null;
}
