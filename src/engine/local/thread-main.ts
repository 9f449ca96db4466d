import { parentPort } from 'node:worker_threads';
import type { EngineColumn, EngineDocument, EnginePage, EngineSubject } from '../types.ts';
import { answerLocally, type Scorer } from './engine.ts';

/** A request from ThreadedLocalEngine: pages travel once per document, then stay here. */
export interface ThreadRequest {
  id: number;
  column: EngineColumn;
  kind: EngineSubject['kind'];
  documents: (Omit<EngineDocument, 'pages'> & { pages?: EnginePage[] })[];
  /** Documents the sender evicted from its record of what this thread holds. */
  forget: string[];
  scorer: Exclude<Scorer, object>;
}

export type ThreadReply =
  | { id: number; answer: ReturnType<typeof answerLocally> }
  | { id: number; error: string };

const pages = new Map<string, EnginePage[]>();

parentPort?.on('message', (m: ThreadRequest) => {
  for (const fileId of m.forget) pages.delete(fileId);
  for (const d of m.documents) if (d.pages) pages.set(d.fileId, d.pages);
  const subject: EngineSubject = {
    kind: m.kind,
    documents: m.documents.map(({ pages: _sent, ...d }) => ({ ...d, pages: pages.get(d.fileId) ?? [] })),
  };
  let reply: ThreadReply;
  try {
    reply = { id: m.id, answer: answerLocally(m.column, subject, m.scorer) };
  } catch (err) {
    reply = { id: m.id, error: (err as Error).message ?? String(err) };
  }
  parentPort!.postMessage(reply);
});
