/** Seeded randomness for generated documents: every value is drawn from one stream per seed. */

export interface Rng {
  next(): number;
  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number;
  pick<T>(xs: readonly T[]): T;
  /** k distinct elements in random order. */
  sample<T>(xs: readonly T[], k: number): T[];
  shuffle<T>(xs: readonly T[]): T[];
  chance(p: number): boolean;
}

/** mulberry32: small, fast and good enough to choose test values reproducibly from a seed. */
export function makeRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const shuffle = <T>(xs: readonly T[]): T[] => {
    const out = [...xs];
    for (let i = out.length - 1; i > 0; i--) {
      const j = int(0, i);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  };
  return {
    next,
    int,
    pick: (xs) => xs[int(0, xs.length - 1)]!,
    sample: (xs, k) => shuffle(xs).slice(0, k),
    shuffle,
    chance: (p) => next() < p,
  };
}

/** A seed string → 32-bit number, so each test derives its own stream from the run's seed. */
export function hashSeed(...parts: (string | number)[]): number {
  let h = 2166136261;
  for (const ch of parts.join('|')) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}
