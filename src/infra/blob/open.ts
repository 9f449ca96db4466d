import type { BlobConfig } from '../config.ts';
import { LocalBlobStore } from './local.ts';
import { S3BlobStore } from './s3.ts';
import type { BlobStore } from './store.ts';

export function openBlobStore(config: BlobConfig): BlobStore {
  return config.kind === 'local' ? new LocalBlobStore(config.rootDir) : new S3BlobStore(config);
}
