import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBlobStore } from '../src/infra/blob/open.ts';
import { BlobNotFoundError, type BlobStore } from '../src/infra/blob/store.ts';
import { startS3rver } from './helpers/s3rver.ts';

// issue 3 item 7: one blob store interface, a local-directory backend and an S3-compatible one.
const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'folio-blob-'));
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const backends: [string, () => Promise<{ store: BlobStore; stop(): Promise<void> }>][] = [
  [
    'local',
    async () => ({ store: await openBlobStore({ kind: 'local', rootDir: tmp() }), stop: async () => {} }),
  ],
  [
    's3',
    async () => {
      const s3 = await startS3rver('folio-test');
      const store = await openBlobStore({
        kind: 's3',
        bucket: 'folio-test',
        endpoint: s3.endpoint,
        region: 'us-east-1',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
        prefix: 'deploy-a',
      });
      return { store, stop: s3.stop };
    },
  ],
];

describe.each(backends)('%s blob store', (_name, open) => {
  let store: BlobStore;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ store, stop } = await open());
  });
  afterAll(() => stop());

  it('round-trips buffers and streams byte for byte, 20 MB streamed included', async () => {
    await store.put('files/ds_a/original', Buffer.from('hello'), { contentType: 'text/plain' });
    expect((await store.getBuffer('files/ds_a/original')).toString()).toBe('hello');
    const big = randomBytes(20 * 1024 * 1024);
    await store.put(
      'files/ds_a/big',
      Readable.from([big.subarray(0, 7e6), big.subarray(7e6, 15e6), big.subarray(15e6)]),
    );
    const chunks: Buffer[] = [];
    for await (const c of (await store.getStream('files/ds_a/big')) as Readable) chunks.push(Buffer.from(c));
    expect(sha(Buffer.concat(chunks))).toBe(sha(big));
    expect(await store.stat('files/ds_a/big')).toEqual({ size: big.length });
  });

  it('puts files and gets them to files', async () => {
    const src = path.join(tmp(), 'in.bin');
    await writeFile(src, randomBytes(100_000));
    await store.putFile('files/ds_b/original', src);
    const out = path.join(tmp(), 'out.bin');
    await store.getToFile('files/ds_b/original', out);
    expect(sha(await readFile(out))).toBe(sha(await readFile(src)));
  });

  it('reports a missing key as BlobNotFoundError / null, and deletes idempotently', async () => {
    await expect(store.getBuffer('files/ds_none/x')).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.getStream('files/ds_none/x')).rejects.toBeInstanceOf(BlobNotFoundError);
    expect(await store.stat('files/ds_none/x')).toBeNull();
    await store.put('files/ds_c/x', Buffer.from('x'));
    await store.delete('files/ds_c/x');
    await store.delete('files/ds_c/x');
    expect(await store.stat('files/ds_c/x')).toBeNull();
  });

  it('deletes a prefix and only that prefix', async () => {
    await Promise.all([
      store.put('files/ds_p/original', Buffer.from('1')),
      store.put('files/ds_p/pages/00001.jpg', Buffer.from('2')),
      store.put('files/ds_pq/original', Buffer.from('3')),
    ]);
    expect(await store.deletePrefix('files/ds_p/')).toBe(2);
    expect(await store.stat('files/ds_p/pages/00001.jpg')).toBeNull();
    expect(await store.stat('files/ds_pq/original')).toEqual({ size: 1 });
    expect(await store.deletePrefix('files/ds_empty/')).toBe(0);
  });

  it('refuses path-like keys', async () => {
    for (const key of ['../etc/passwd', '/abs', 'a//b', 'a/./b', 'a\\b', '']) {
      await expect(store.put(key, Buffer.from('x'))).rejects.toThrow(/Invalid blob key/);
    }
  });
});

describe('local blob store atomicity', () => {
  it('leaves no temporary files behind and never exposes a half-written blob', async () => {
    const root = tmp();
    const store = await openBlobStore({ kind: 'local', rootDir: root });
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1000));
        this.destroy(new Error('client went away'));
      },
    });
    await expect(store.put('files/ds_t/original', failing)).rejects.toThrow(/went away/);
    expect(await store.stat('files/ds_t/original')).toBeNull();
    await store.put('files/ds_t/original', Buffer.from('complete'));
    expect(readdirSync(path.join(root, 'files', 'ds_t'))).toEqual(['original']);
  });
});
