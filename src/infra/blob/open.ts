import type { BlobConfig } from '../config.ts';
import { LocalBlobStore } from './local.ts';
import type { BlobStore } from './store.ts';

/** The AWS SDK (~35 MB resident) is loaded only when S3 is configured. */
export async function openBlobStore(config: BlobConfig): Promise<BlobStore> {
  if (config.kind === 'local') return new LocalBlobStore(config.rootDir);
  const { S3BlobStore } = await import('./s3.ts');
  return new S3BlobStore(config);
}
