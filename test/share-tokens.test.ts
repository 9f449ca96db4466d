import { describe, expect, it } from 'vitest';
import { clampLifetime, mintShare, verifyShare } from '../src/domain/share-tokens.ts';

// interface.md 4.7 and decisions.md D9: token format, clamping, verification.
describe('share tokens', () => {
  const secret = 'x'.repeat(40);
  const now = 1_800_000_000_000;

  it('have the form v1.<epoch seconds>.<signature> and carry the expiry in ms', () => {
    const s = mintShare(secret, 'https://folio.test', 'dsx_abc', 600, now);
    expect(s.token).toMatch(/^v1\.\d+\.[A-Za-z0-9_-]{43}$/);
    expect(s.token.length).toBeLessThanOrEqual(128);
    expect(Number(s.token.split('.')[1])).toBe(now / 1000 + 600);
    expect(s.expiresAt).toBe(now + 600_000);
    expect(s.url).toBe(`https://folio.test/v2/share/dsx_abc?token=${encodeURIComponent(s.token)}`);
  });

  it('clamp lifetimes to 60-86,400 seconds, default 600', () => {
    expect(clampLifetime(undefined)).toBe(600);
    expect(clampLifetime(1)).toBe(60);
    expect(clampLifetime(-5)).toBe(60);
    expect(clampLifetime(10_000_000)).toBe(86_400);
    expect(clampLifetime(3600.7)).toBe(3600);
  });

  it('verify only for the same id, secret and an unexpired time', () => {
    const { token } = mintShare(secret, '', 'dsx_abc', 600, now);
    expect(verifyShare(secret, 'dsx_abc', token, now + 1000)).toMatchObject({ ok: true });
    expect(verifyShare(secret, 'dsx_abd', token, now)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyShare(`${secret}y`, 'dsx_abc', token, now)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyShare(secret, 'dsx_abc', token, now + 600_000)).toMatchObject({
      ok: false,
      reason: 'expired',
    });
    const [v, exp, sig] = token.split('.');
    expect(verifyShare(secret, 'dsx_abc', `${v}.${Number(exp) + 3600}.${sig}`, now)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect(verifyShare(secret, 'dsx_abc', 'garbage', now)).toEqual({ ok: false, reason: 'invalid' });
  });
});
