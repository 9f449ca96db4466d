import { createHmac, timingSafeEqual } from 'node:crypto';

/** interface.md 4.7: lifetimes are clamped to 60-86,400 seconds, default 600. */
export const SHARE_MIN_SECONDS = 60;
export const SHARE_MAX_SECONDS = 86_400;
export const SHARE_DEFAULT_SECONDS = 600;

export function clampLifetime(seconds: number | undefined): number {
  if (seconds === undefined || !Number.isFinite(seconds)) return SHARE_DEFAULT_SECONDS;
  return Math.min(SHARE_MAX_SECONDS, Math.max(SHARE_MIN_SECONDS, Math.floor(seconds)));
}

function sign(secret: string, id: string, expSeconds: number): string {
  return createHmac('sha256', secret).update(`share:v1:${id}:${expSeconds}`).digest('base64url');
}

export interface Share {
  url: string;
  token: string;
  /** epoch ms */
  expiresAt: number;
}

/** Minting is pure: nothing is written, nothing is charged. */
export function mintShare(
  secret: string,
  baseUrl: string,
  id: string,
  lifetimeSeconds: number,
  now: number,
): Share {
  const exp = Math.floor(now / 1000) + clampLifetime(lifetimeSeconds);
  const token = `v1.${exp}.${sign(secret, id, exp)}`;
  return {
    url: `${baseUrl}/v2/share/${id}?token=${encodeURIComponent(token)}`,
    token,
    expiresAt: exp * 1000,
  };
}

export type Verdict =
  | { ok: true; expSeconds: number }
  | { ok: false; reason: 'invalid' | 'expired'; expSeconds?: number };

/** Signature first (constant time), then expiry, so a forged token never learns about time. */
export function verifyShare(secret: string, id: string, token: string, now: number): Verdict {
  const m = /^v1\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return { ok: false, reason: 'invalid' };
  const exp = Number(m[1]);
  const expected = Buffer.from(sign(secret, id, exp));
  const given = Buffer.from(m[2]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given))
    return { ok: false, reason: 'invalid' };
  if (exp * 1000 <= now) return { ok: false, reason: 'expired', expSeconds: exp };
  return { ok: true, expSeconds: exp };
}
