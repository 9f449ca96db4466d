import { normalizeIP } from '@fastify/rate-limit';
import type { Clock } from '../../infra/clock.ts';

/** Addresses remembered at once; past this the oldest window is forgotten first. */
const MAX_ADDRESSES = 10_000;

interface Window {
  startedAt: number;
  failures: number;
}

/**
 * Failed authentications per source address in fixed one-minute windows (issue 15 F8),
 * counted per process like the request rate limit. An address that reaches the limit is
 * blocked until its window ends: every request from it that needs a key or the admin token
 * answers 429 before the credential is even looked at, a valid one included, so the
 * answers cannot tell a guess that would have worked from one that would not. IPv6
 * addresses count by /64 prefix (as @fastify/rate-limit does), so a host cannot rotate
 * through its own prefix.
 */
export class AuthFailureThrottle {
  readonly #windows = new Map<string, Window>();
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #now: Clock;

  constructor(limit: number, now: Clock, windowMs = 60_000) {
    this.#limit = limit;
    this.#now = now;
    this.#windowMs = windowMs;
  }

  /** True while the address has used up its failures for the current window. */
  blocked(ip: string): boolean {
    const window = this.#live(normalizeIP(ip));
    return window !== undefined && window.failures >= this.#limit;
  }

  /** Counts one failure; true when this one reached the limit (the address is now blocked). */
  fail(ip: string): boolean {
    const key = normalizeIP(ip);
    let window = this.#live(key);
    if (!window) {
      this.#makeRoom();
      window = { startedAt: this.#now(), failures: 0 };
      this.#windows.set(key, window);
    }
    window.failures++;
    return window.failures === this.#limit;
  }

  #live(key: string): Window | undefined {
    const window = this.#windows.get(key);
    if (window && this.#now() - window.startedAt >= this.#windowMs) {
      this.#windows.delete(key);
      return undefined;
    }
    return window;
  }

  /** Drops ended windows, then the oldest ones, so memory stays bounded under a spray of addresses. */
  #makeRoom(): void {
    if (this.#windows.size < MAX_ADDRESSES) return;
    const now = this.#now();
    for (const [key, window] of this.#windows) {
      if (now - window.startedAt >= this.#windowMs) this.#windows.delete(key);
    }
    for (const key of this.#windows.keys()) {
      if (this.#windows.size < MAX_ADDRESSES) break;
      this.#windows.delete(key);
    }
  }
}
