import { createReadStream, createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { BlobNotFoundError, type BlobStore, checkKey } from './store.ts';

export interface S3Options {
  bucket: string;
  endpoint?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle?: boolean;
  prefix?: string;
}

/** S3-compatible object storage; streams both ways, multipart for large bodies. */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(opts: S3Options) {
    this.bucket = opts.bucket;
    this.prefix = opts.prefix ? `${opts.prefix.replace(/\/+$/, '')}/` : '';
    this.client = new S3Client({
      region: opts.region ?? 'us-east-1',
      endpoint: opts.endpoint,
      forcePathStyle: opts.forcePathStyle ?? opts.endpoint !== undefined,
      credentials:
        opts.accessKeyId && opts.secretAccessKey
          ? { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey }
          : undefined,
    });
  }

  private key(key: string): string {
    return this.prefix + checkKey(key);
  }

  async put(
    key: string,
    body: Buffer | Uint8Array | NodeJS.ReadableStream,
    opts: { contentType?: string } = {},
  ): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.bucket,
        Key: this.key(key),
        Body: body instanceof Uint8Array ? body : Readable.from(body as AsyncIterable<Buffer>),
        ContentType: opts.contentType,
      },
      // Bounded memory: at most queueSize parts of partSize in flight.
      partSize: 8 * 1024 * 1024,
      queueSize: 2,
    });
    await upload.done();
  }

  putFile(key: string, filePath: string, opts: { contentType?: string } = {}): Promise<void> {
    return this.put(key, createReadStream(filePath), opts);
  }

  async getStream(key: string): Promise<NodeJS.ReadableStream> {
    try {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
      return res.Body as Readable;
    } catch (err) {
      throw missing(err) ? new BlobNotFoundError(`No blob ${key}`) : err;
    }
  }

  async getBuffer(key: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of (await this.getStream(key)) as Readable) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks);
  }

  async getToFile(key: string, filePath: string): Promise<void> {
    await pipeline((await this.getStream(key)) as Readable, createWriteStream(filePath));
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
      return { size: res.ContentLength ?? 0 };
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(key) }));
  }

  async deletePrefix(prefix: string): Promise<number> {
    checkKey(prefix, { prefix: true });
    if (!prefix.endsWith('/')) throw new Error('deletePrefix needs a folder prefix ending in /');
    let count = 0;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: this.prefix + prefix,
          ContinuationToken: token,
        }),
      );
      const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key! }));
      if (keys.length > 0) {
        await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys, Quiet: true } }),
        );
        count += keys.length;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return count;
  }
}

function missing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}
