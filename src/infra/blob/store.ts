/** Page bytes and original uploads live behind this one interface (local disk or S3). */
export class BlobNotFoundError extends Error {}

export interface BlobStore {
  readonly kind: 'local' | 's3';
  /** Writes body to key; resolves once durable. Safe to retry with the same bytes. */
  put(
    key: string,
    body: Buffer | Uint8Array | NodeJS.ReadableStream,
    opts?: { contentType?: string },
  ): Promise<void>;
  putFile(key: string, filePath: string, opts?: { contentType?: string }): Promise<void>;
  /** BlobNotFoundError when absent. */
  getStream(key: string): Promise<NodeJS.ReadableStream>;
  getBuffer(key: string): Promise<Buffer>;
  /** Downloads to a local path, e.g. to hand an original to a converter. */
  getToFile(key: string, filePath: string): Promise<void>;
  stat(key: string): Promise<{ size: number } | null>;
  /** Idempotent. */
  delete(key: string): Promise<void>;
  /** Removes every key under prefix (which must end with `/`); returns how many. */
  deletePrefix(prefix: string): Promise<number>;
}

/** Keys are code-made paths like `files/ds_x/pages/00001.jpg`; anything path-like is refused. */
export function checkKey(key: string, opts: { prefix?: boolean } = {}): string {
  const body = opts.prefix ? key.replace(/\/$/, '') : key;
  if (
    !body ||
    body.startsWith('/') ||
    body.includes('\\') ||
    body.includes('\0') ||
    body.split('/').some((seg) => seg === '' || seg === '.' || seg === '..')
  ) {
    throw new Error(`Invalid blob key: ${JSON.stringify(key)}`);
  }
  return key;
}
