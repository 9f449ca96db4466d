import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { systemClock } from './clock.ts';

export class DataDirLockedError extends Error {}

interface LockInfo {
  pid: number;
  host: string;
  startedAt: number;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(file: string): LockInfo | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as LockInfo;
  } catch {
    return null;
  }
}

/**
 * PGlite has no lock of its own and two processes on one data directory silently lose
 * writes, so exactly one Folio process may own DATA_DIR. A lock left by a process that is
 * gone (same host, pid not alive) is taken over. Returns the release function.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'folio.lock');
  const mine: LockInfo = { pid: process.pid, host: os.hostname(), startedAt: systemClock() };

  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, JSON.stringify(mine));
      closeSync(fd);
      const release = () => {
        if (readLock(file)?.pid === mine.pid) unlinkSync(file);
      };
      process.once('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readLock(file);
    const stale = holder !== null && holder.host === mine.host && !isAlive(holder.pid);
    if (holder !== null && !stale) {
      const where =
        holder.host === mine.host ? `process ${holder.pid}` : `process ${holder.pid} on host ${holder.host}`;
      throw new DataDirLockedError(
        `DATA_DIR ${dataDir} is already in use by ${where} (since ${new Date(holder.startedAt).toISOString()}). ` +
          'The embedded database allows one Folio process per data directory: stop the other process, ' +
          'choose another DATA_DIR, or set DATABASE_URL to share one PostgreSQL between processes. ' +
          `If no such process exists, delete ${file}.`,
      );
    }
    // Stale or unreadable (a crash mid-write): take it over.
    try {
      unlinkSync(file);
    } catch {}
  }
  throw new DataDirLockedError(`Could not take the lock ${file}; another process keeps replacing it.`);
}
