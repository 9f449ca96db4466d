/**
 * Gradient-boosted decision trees on the logistic loss, for the candidate scorer. Chosen over
 * the plain logistic regression because the evidence is conjunctive (a label that names the
 * question AND sits left of the value AND the value has the asked shape), which a linear model
 * cannot express. Histogram splits on quantile bins, second-order leaf values, no sampling:
 * the same rows give the same trees.
 */
import type { Boosted, Tree } from '../src/engine/local/model.ts';
import { hashSeed } from './generate/rng.ts';

export interface BoostOptions {
  rounds: number;
  depth: number;
  learningRate: number;
  bins: number;
  /** L2 penalty on leaf values. */
  lambda: number;
  /** A leaf needs at least this much hessian (roughly, examples the model is unsure of). */
  minHessian: number;
  /**
   * Weight of a listwise term: within each question's rows (`groups`, contiguous), a softmax
   * over the margins should put its mass on the positives. It teaches the order between one
   * question's candidates, which is what picks the answer; the logistic term stays beside it.
   */
  listwise?: number;
  /**
   * Bagging: fit this many models, each on a share of the questions (`groups`), and average them
   * (their trees joined, leaf values divided by the count). One fit's ranking moves with which
   * documents it saw; the average moves less, which is what unseen families need.
   */
  bags?: number;
  /** Share of questions each bag sees (all by default: the bags then differ by their features). */
  bagShare?: number;
  /**
   * Share of the features each tree may split on, drawn per tree: no single strong feature
   * (a label word seen in training families) gets to carry every tree.
   */
  colShare?: number;
}

export const DEFAULT_BOOST: BoostOptions = {
  rounds: 120,
  depth: 4,
  learningRate: 0.1,
  bins: 32,
  lambda: 1,
  minHessian: 1,
};

/** Per feature, ascending cut points: bin b holds values in (cut[b-1], cut[b]]. */
function quantileCuts(x: Float32Array[], dims: number, bins: number): Float32Array[] {
  const cuts: Float32Array[] = [];
  const stride = Math.max(1, Math.floor(x.length / 20_000));
  for (let f = 0; f < dims; f++) {
    const values: number[] = [];
    for (let r = 0; r < x.length; r += stride) values.push(x[r]![f]!);
    values.sort((a, b) => a - b);
    const unique: number[] = [];
    for (const v of values) if (unique.length === 0 || v !== unique[unique.length - 1]) unique.push(v);
    const out: number[] = [];
    if (unique.length <= bins) {
      for (let i = 0; i + 1 < unique.length; i++) out.push((unique[i]! + unique[i + 1]!) / 2);
    } else {
      for (let b = 1; b < bins; b++) {
        const v = values[Math.floor((b * values.length) / bins)]!;
        if (out.length === 0 || v > out[out.length - 1]!) out.push(v);
      }
    }
    cuts.push(Float32Array.from(out));
  }
  return cuts;
}

function binOf(cut: Float32Array, v: number): number {
  let lo = 0;
  let hi = cut.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (v <= cut[mid]!) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export function fitBoosted(
  x: Float32Array[],
  y: number[],
  dims: number,
  opts: BoostOptions = DEFAULT_BOOST,
  groups?: readonly number[],
): Boosted {
  const bags = opts.bags ?? 1;
  const share = opts.bagShare ?? 1;
  if (bags <= 1 || (share < 1 && !groups)) return fitOne(x, y, dims, opts, groups);
  const fits: Boosted[] = [];
  for (let k = 0; k < bags; k++) {
    // Every question in every bag (the default): the bags differ only by the features their trees draw.
    if (share >= 1) {
      fits.push(fitOne(x, y, dims, opts, groups, k));
      continue;
    }
    const keep: number[] = [];
    for (let r = 0; r < x.length; r++)
      if (hashSeed('bag', k, groups![r]!) % 1000 < share * 1000) keep.push(r);
    fits.push(
      fitOne(
        keep.map((r) => x[r]!),
        keep.map((r) => y[r]!),
        dims,
        opts,
        keep.map((r) => groups![r]!),
        k,
      ),
    );
  }
  const round = (v: number) => Math.round(v * 1e5) / 1e5;
  return {
    kind: 'boosted',
    base: round(fits.reduce((s, f) => s + f.base, 0) / bags),
    trees: fits.flatMap((f) => f.trees.map((t) => ({ ...t, value: t.value.map((v) => round(v / bags)) }))),
  };
}

function fitOne(
  x: Float32Array[],
  y: number[],
  dims: number,
  opts: BoostOptions = DEFAULT_BOOST,
  groups?: readonly number[],
  seed = 0,
): Boosted {
  const n = x.length;
  const cuts = quantileCuts(x, dims, opts.bins);
  const nb = opts.bins + 1;
  const binned = new Uint8Array(n * dims);
  for (let r = 0; r < n; r++)
    for (let f = 0; f < dims; f++) binned[r * dims + f] = binOf(cuts[f]!, x[r]![f]!);
  const pos = y.reduce((s, v) => s + v, 0);
  const prior = Math.min(1 - 1e-4, Math.max(1e-4, pos / Math.max(1, n)));
  const base = Math.log(prior / (1 - prior));
  const margin = new Float64Array(n).fill(base);
  const g = new Float64Array(n);
  const h = new Float64Array(n);
  const trees: Tree[] = [];
  // Histogram of a node's rows: gradient and hessian sums per feature bin, interleaved.
  let cols = Int32Array.from({ length: dims }, (_, f) => f);
  const histogram = (rows: Uint32Array): Float64Array => {
    const hist = new Float64Array(dims * nb * 2);
    for (const r of rows) {
      const gr = g[r]!;
      const hr = h[r]!;
      const at = r * dims;
      for (const f of cols) {
        const k = (f * nb + binned[at + f]!) * 2;
        hist[k]! += gr;
        hist[k + 1]! += hr;
      }
    }
    return hist;
  };
  for (let round = 0; round < opts.rounds; round++) {
    for (let r = 0; r < n; r++) {
      const p = 1 / (1 + Math.exp(-margin[r]!));
      g[r] = p - y[r]!;
      h[r] = Math.max(1e-6, p * (1 - p));
    }
    if (opts.listwise && groups) addListwise(margin, y, groups, g, h, opts.listwise);
    const tree: Tree = { feature: [], threshold: [], left: [], right: [], value: [] };
    if (opts.colShare && opts.colShare < 1) {
      const share = opts.colShare;
      cols = Int32Array.from(
        Array.from({ length: dims }, (_, f) => f).filter(
          (f) => hashSeed('col', seed, round, f) % 1000 < share * 1000,
        ),
      );
    }
    // A child's histogram is its parent's minus its sibling's, so only the smaller child is summed.
    const grow = (rows: Uint32Array, depth: number, hist: Float64Array | null): number => {
      const id = tree.feature.length;
      tree.feature.push(-1);
      tree.threshold.push(0);
      tree.left.push(-1);
      tree.right.push(-1);
      tree.value.push(0);
      let G = 0;
      let H = 0;
      for (const r of rows) {
        G += g[r]!;
        H += h[r]!;
      }
      const leaf = () => {
        tree.value[id] = Math.round((-G / (H + opts.lambda)) * opts.learningRate * 1e5) / 1e5;
        return id;
      };
      if (depth >= opts.depth || rows.length < 4 || H < 2 * opts.minHessian) return leaf();
      const own = hist ?? histogram(rows);
      const parent = (G * G) / (H + opts.lambda);
      let bestGain = 1e-6;
      let bestF = -1;
      let bestBin = -1;
      for (const f of cols) {
        const nCuts = cuts[f]!.length;
        let gl = 0;
        let hl = 0;
        for (let b = 0; b < nCuts; b++) {
          gl += own[(f * nb + b) * 2]!;
          hl += own[(f * nb + b) * 2 + 1]!;
          const hr = H - hl;
          if (hl < opts.minHessian || hr < opts.minHessian) continue;
          const gr = G - gl;
          const gain = (gl * gl) / (hl + opts.lambda) + (gr * gr) / (hr + opts.lambda) - parent;
          if (gain > bestGain) {
            bestGain = gain;
            bestF = f;
            bestBin = b;
          }
        }
      }
      if (bestF < 0) return leaf();
      let nl = 0;
      for (const r of rows) if (binned[r * dims + bestF]! <= bestBin) nl++;
      const leftRows = new Uint32Array(nl);
      const rightRows = new Uint32Array(rows.length - nl);
      let li = 0;
      let ri = 0;
      for (const r of rows) {
        if (binned[r * dims + bestF]! <= bestBin) leftRows[li++] = r;
        else rightRows[ri++] = r;
      }
      tree.feature[id] = bestF;
      tree.threshold[id] = cuts[bestF]![bestBin]!;
      let leftHist: Float64Array | null = null;
      let rightHist: Float64Array | null = null;
      if (depth + 1 < opts.depth) {
        const small = leftRows.length <= rightRows.length ? leftRows : rightRows;
        const smallHist = histogram(small);
        const bigHist = own;
        for (let k = 0; k < bigHist.length; k++) bigHist[k]! -= smallHist[k]!;
        if (small === leftRows) [leftHist, rightHist] = [smallHist, bigHist];
        else [leftHist, rightHist] = [bigHist, smallHist];
      }
      tree.left[id] = grow(leftRows, depth + 1, leftHist);
      tree.right[id] = grow(rightRows, depth + 1, rightHist);
      return id;
    };
    grow(
      Uint32Array.from({ length: n }, (_, i) => i),
      0,
      null,
    );
    for (let r = 0; r < n; r++) margin[r]! += treeValue(tree, x[r]!);
    trees.push(tree);
  }
  return { kind: 'boosted', base: Math.round(base * 1e5) / 1e5, trees };
}

/** Softmax cross-entropy per group of contiguous rows, added to the gradients and hessians. */
function addListwise(
  margin: Float64Array,
  y: readonly number[],
  groups: readonly number[],
  g: Float64Array,
  h: Float64Array,
  weight: number,
): void {
  const n = margin.length;
  let start = 0;
  while (start < n) {
    let end = start;
    while (end < n && groups[end] === groups[start]) end++;
    let positives = 0;
    let max = Number.NEGATIVE_INFINITY;
    for (let r = start; r < end; r++) {
      positives += y[r]!;
      max = Math.max(max, margin[r]!);
    }
    if (positives > 0 && end - start > 1) {
      let z = 0;
      for (let r = start; r < end; r++) z += Math.exp(margin[r]! - max);
      for (let r = start; r < end; r++) {
        const p = Math.exp(margin[r]! - max) / z;
        g[r]! += weight * (p - y[r]! / positives);
        h[r]! += weight * Math.max(1e-6, p * (1 - p));
      }
    }
    start = end;
  }
}

function treeValue(t: Tree, x: ArrayLike<number>): number {
  let node = 0;
  while (t.feature[node]! >= 0)
    node = (x[t.feature[node]!] ?? 0) <= t.threshold[node]! ? t.left[node]! : t.right[node]!;
  return t.value[node]!;
}
