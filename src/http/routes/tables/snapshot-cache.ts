import { createHash } from 'node:crypto';

/**
 * Serialized GET-table bodies, keyed by table and fingerprint. A hit skips reading and
 * serializing 100,000 cells; a changed table has a new fingerprint and is rebuilt. Bounded
 * by total bytes, least recently used first out.
 */
export class SnapshotCache {
  private readonly entries = new Map<string, { fingerprint: string; body: Buffer; etag: string }>();
  private bytes = 0;
  private readonly maxBytes: number;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  get(tableId: string, fingerprint: string): { body: Buffer; etag: string } | null {
    const e = this.entries.get(tableId);
    if (!e || e.fingerprint !== fingerprint) return null;
    this.entries.delete(tableId);
    this.entries.set(tableId, e);
    return e;
  }

  set(tableId: string, fingerprint: string, body: Buffer): string {
    const etag = `"${createHash('sha256').update(tableId).update(fingerprint).digest('base64url').slice(0, 27)}"`;
    this.drop(tableId);
    if (body.length > this.maxBytes) return etag;
    this.entries.set(tableId, { fingerprint, body, etag });
    this.bytes += body.length;
    for (const key of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(key);
    }
    return etag;
  }

  private drop(tableId: string): void {
    const e = this.entries.get(tableId);
    if (!e) return;
    this.bytes -= e.body.length;
    this.entries.delete(tableId);
  }
}
