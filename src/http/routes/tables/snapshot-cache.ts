import { createHash } from 'node:crypto';

export interface Snapshot<L> {
  fingerprint: string;
  body: Buffer;
  etag: string;
  /** What the builder needs to reuse parts of this body for the next state of the table. */
  layout: L;
}

/**
 * Serialized GET-table bodies, keyed by table and fingerprint. A hit skips reading and
 * serializing 100,000 cells; a changed table has a new fingerprint and is rebuilt, reusing
 * what it can of the body filed before. Bounded by total bytes, least recently used first out.
 */
export class SnapshotCache<L> {
  private readonly entries = new Map<string, Snapshot<L> & { bytes: number }>();
  private bytes = 0;
  private readonly maxBytes: number;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  get(tableId: string, fingerprint: string): Snapshot<L> | null {
    const e = this.entries.get(tableId);
    if (!e || e.fingerprint !== fingerprint) return null;
    this.entries.delete(tableId);
    this.entries.set(tableId, e);
    return e;
  }

  /** The body filed for the table, whatever state it shows. */
  latest(tableId: string): Snapshot<L> | null {
    return this.entries.get(tableId) ?? null;
  }

  /** Files a body; `layoutBytes` estimates the layout's memory. */
  set(tableId: string, fingerprint: string, body: Buffer, layout: L, layoutBytes = 0): Snapshot<L> {
    const etag = `"${createHash('sha256').update(tableId).update(fingerprint).digest('base64url').slice(0, 27)}"`;
    const entry = { fingerprint, body, etag, layout, bytes: body.length + layoutBytes };
    this.drop(tableId);
    if (entry.bytes > this.maxBytes) return entry;
    this.entries.set(tableId, entry);
    this.bytes += entry.bytes;
    for (const key of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(key);
    }
    return entry;
  }

  private drop(tableId: string): void {
    const e = this.entries.get(tableId);
    if (!e) return;
    this.bytes -= e.bytes;
    this.entries.delete(tableId);
  }
}
