import type { Tier } from '../infra/repos/index.ts';

const MB = 1024 * 1024;

/** interface.md section 8 and decisions.md D3. */
export const TIER_LIMITS: Readonly<
  Record<Tier, { uploadBytes: number; pagesPerJob: number; maxExpiryDays: number | null }>
> = {
  starter: { uploadBytes: 10 * MB, pagesPerJob: 100, maxExpiryDays: 30 },
  bronze: { uploadBytes: 25 * MB, pagesPerJob: 250, maxExpiryDays: 90 },
  silver: { uploadBytes: 100 * MB, pagesPerJob: 500, maxExpiryDays: 365 },
  gold: { uploadBytes: 300 * MB, pagesPerJob: 1000, maxExpiryDays: null },
};

/** One multipart request never carries more than this, whatever the tier. */
export const SINGLE_REQUEST_BYTES = 100 * MB;

export function formatMb(bytes: number): string {
  return `${Math.round(bytes / MB)} MB`;
}
