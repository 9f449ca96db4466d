import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface Spawned {
  proc: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Runs a script of the repo with the same Node as the tests and a clean, explicit environment. */
export function spawnScript(script: string, env: Record<string, string>, args: string[] = []): Spawned {
  const proc = spawn(process.execPath, [path.join(ROOT, script), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => {
    out += d;
  });
  proc.stderr!.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  return {
    proc,
    output: () => out,
    exited,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      return exited;
    },
  };
}

/**
 * Polls /healthz until 200; fails with the process output if it exits or times out. The bound
 * is generous: a first start creates the embedded database, which on a loaded 2-core machine
 * running the whole suite took over 15 s once.
 */
export async function waitHealthy(s: Spawned, port: number, timeoutMs = 60_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (s.proc.exitCode !== null) throw new Error(`process exited ${s.proc.exitCode}:\n${s.output()}`);
    try {
      const r = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (r.status === 200) return Date.now() - started;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`not healthy after ${timeoutMs} ms:\n${s.output()}`);
}
