import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AnswerEngine, EngineAnswer, EngineColumn, EngineSubject } from '../types.ts';
import type { ThreadReply, ThreadRequest } from './thread-main.ts';

type NamedScorer = ThreadRequest['scorer'];

const THREAD_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'thread-main.ts');

/** Pages one thread keeps, counted here so the sender knows what it need not send again. */
const PAGES_PER_THREAD = 4_000;

interface Pending {
  resolve: (a: EngineAnswer) => void;
  reject: (e: Error) => void;
}

/** One engine thread and what it holds: the documents already sent, oldest first. */
class EngineThread {
  private worker: Worker | null = null;
  private readonly held = new Map<string, number>();
  private heldPages = 0;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  private readonly scorer: NamedScorer;

  constructor(scorer: NamedScorer) {
    this.scorer = scorer;
  }

  answer(column: EngineColumn, subject: EngineSubject, signal?: AbortSignal): Promise<EngineAnswer> {
    const worker = this.ensureWorker();
    const forget: string[] = [];
    const documents = subject.documents.map((d) => {
      const { pages, ...rest } = d;
      if (this.held.has(d.fileId)) {
        this.held.delete(d.fileId); // re-insert: most recent last
        this.held.set(d.fileId, pages.length);
        return rest;
      }
      this.held.set(d.fileId, pages.length);
      this.heldPages += pages.length;
      return { ...rest, pages };
    });
    const wanted = new Set(subject.documents.map((d) => d.fileId));
    for (const [fileId, n] of this.held) {
      if (this.heldPages <= PAGES_PER_THREAD) break;
      if (wanted.has(fileId)) continue;
      this.held.delete(fileId);
      this.heldPages -= n;
      forget.push(fileId);
    }
    const id = this.nextId++;
    const request: ThreadRequest = { id, column, kind: subject.kind, documents, forget, scorer: this.scorer };
    return new Promise<EngineAnswer>((resolve, reject) => {
      const onAbort = () => {
        this.pending.delete(id);
        reject(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        resolve: (a) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(a);
        },
        reject: (e) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
      });
      worker.postMessage(request);
    });
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(THREAD_FILE, { resourceLimits: { maxOldGenerationSizeMb: 1024 } });
    worker.unref();
    worker.on('message', (m: ThreadReply) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if ('error' in m) p.reject(new Error(m.error));
      else p.resolve(m.answer);
    });
    const fail = (err: Error) => {
      if (this.worker !== worker) return;
      // A dead thread takes its documents with it: start the next one empty.
      this.worker = null;
      this.held.clear();
      this.heldPages = 0;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`engine thread exited (${code})`)));
    this.worker = worker;
    return worker;
  }
}

/**
 * The local engine on worker threads, so answering never blocks the HTTP event loop. A
 * subject always goes to the same thread (by its first document), where its pages and
 * indexes stay cached between the cells of a row.
 */
export function createThreadedLocalEngine(threads: number, scorer: NamedScorer = 'learned'): AnswerEngine {
  const pool = Array.from({ length: Math.max(1, threads) }, () => new EngineThread(scorer));
  return {
    name: 'local',
    answer(column, subject, signal) {
      const key = subject.documents[0]?.fileId ?? '';
      let h = 0;
      for (let i = 0; i < key.length; i++) h = (h * 31 + key.charCodeAt(i)) | 0;
      return pool[Math.abs(h) % pool.length]!.answer(column, subject, signal);
    },
    async close() {
      await Promise.all(pool.map((t) => t.close()));
    },
  };
}
