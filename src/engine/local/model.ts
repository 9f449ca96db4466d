import { readFileSync } from 'node:fs';
import type { Associations } from './associations.ts';
import { FEATURES } from './features.ts';
import type { Group } from './typed-candidates.ts';

/** A logistic regression over standardised features. */
export interface Logistic {
  mean: number[];
  std: number[];
  w: number[];
  b: number;
}

/**
 * Platt scaling: P(answer right) = sigmoid(a * logit(p) + b + c * familiarity). `familiarity`
 * (answer-document.ts) tells how well the learned label associations know the document's
 * labels for this question; absent `c` reads as 0.
 */
export interface Platt {
  a: number;
  b: number;
  c?: number;
  /**
   * Lists: the weight of the weakest chosen entry's logit. A list is right only when every entry
   * is, so its least convincing entry says as much as its best one.
   */
  d?: number;
}

/** One regression tree: node i splits on `feature[i]` (`-1` for a leaf holding `value[i]`). */
export interface Tree {
  feature: number[];
  threshold: number[];
  left: number[];
  right: number[];
  value: number[];
}

/** Gradient-boosted trees: margin = base + Σ tree values. */
export interface Boosted {
  kind: 'boosted';
  base: number;
  trees: Tree[];
}

export type Scorer = Logistic | Boosted;

export type GroupModel = Scorer & {
  /** Below this candidate probability the document is taken not to state the value. */
  threshold: number;
  /**
   * Lists: the summed probability a run of entries needs when no entry clears `threshold`
   * alone (absent: `threshold`).
   */
  runThreshold?: number;
  /** Calibrates the top candidate's probability into P(the answer is right). */
  answered: Platt;
  /** Calibrates it into P(a null answer is right) when below the threshold. */
  unanswered: Platt;
  /**
   * Whether the document states the value at all, from the whole ranking (top probability,
   * margin, how well the top is labelled); its probability replaces the top candidate's in
   * the threshold and calibration above. Features named in ANSWERABLE_FEATURES.
   */
  answerable?: Logistic;
  /**
   * Orders one question's candidates when present (trained with a listwise term: which of
   * these is the answer). The group's own scorer still gives the probabilities that the
   * threshold, answerability and calibration read.
   */
  ranker?: Boosted;
  /**
   * How often an answer taken as the document's only value of the asked shape (its one e-mail
   * address, its one sum: answer-document.ts soleAnswer) was right on held-out documents,
   * smoothed: its confidence. The ranking's probability is low exactly when that rule decides.
   */
  soleRight?: number;
};

/** The learned scorer, as `npm run train` writes it to model/weights.json. */
export interface ScorerModel {
  features: string[];
  groups: Record<Group, GroupModel>;
  /** Yes/no from the clause the answer rests on: features named in `polarityFeatures`. */
  polarity: Logistic;
  polarityFeatures: string[];
  /**
   * P(yes) for "does it state X?" questions, from how far the search for X clears its group's
   * threshold (answer-document.ts existenceOf). Absent in models trained before it.
   */
  existence?: Platt;
  /** Learned prompt-word → label-word associations (associations.ts). */
  associations?: Associations;
  trainedOn?: Record<string, unknown>;
}

export const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
export const logit = (p: number) => {
  const q = Math.min(1 - 1e-6, Math.max(1e-6, p));
  return Math.log(q / (1 - q));
};

export function linear(m: Scorer, x: ArrayLike<number>): number {
  if ('kind' in m && m.kind === 'boosted') return forestMargin(flatForest(m), x);
  return linearLogistic(m as Logistic, x);
}

/** A forest's nodes in flat typed arrays: each candidate walks hundreds of trees. */
interface FlatForest {
  base: number;
  roots: Int32Array;
  feature: Int32Array;
  threshold: Float64Array;
  left: Int32Array;
  right: Int32Array;
  value: Float64Array;
}

const flattened = new WeakMap<Boosted, FlatForest>();

function flatForest(m: Boosted): FlatForest {
  let f = flattened.get(m);
  if (f) return f;
  const size = m.trees.reduce((s, t) => s + t.feature.length, 0);
  f = {
    base: m.base,
    roots: new Int32Array(m.trees.length),
    feature: new Int32Array(size),
    threshold: new Float64Array(size),
    left: new Int32Array(size),
    right: new Int32Array(size),
    value: new Float64Array(size),
  };
  let at = 0;
  m.trees.forEach((t, i) => {
    f!.roots[i] = at;
    for (let n = 0; n < t.feature.length; n++) {
      f!.feature[at + n] = t.feature[n]!;
      f!.threshold[at + n] = t.threshold[n]!;
      f!.left[at + n] = at + t.left[n]!;
      f!.right[at + n] = at + t.right[n]!;
      f!.value[at + n] = t.value[n]!;
    }
    at += t.feature.length;
  });
  flattened.set(m, f);
  return f;
}

function forestMargin(f: FlatForest, x: ArrayLike<number>): number {
  let z = f.base;
  const { roots, feature, threshold, left, right, value } = f;
  for (let i = 0; i < roots.length; i++) {
    let node = roots[i]!;
    let k = feature[node]!;
    while (k >= 0) {
      node = (x[k] ?? 0) <= threshold[node]! ? left[node]! : right[node]!;
      k = feature[node]!;
    }
    z += value[node]!;
  }
  return z;
}

function linearLogistic(m: Logistic, x: ArrayLike<number>): number {
  let z = m.b;
  for (let i = 0; i < m.w.length; i++) {
    const w = m.w[i]!;
    if (w !== 0) z += (w * ((x[i] ?? 0) - m.mean[i]!)) / m.std[i]!;
  }
  return z;
}

export const probability = (m: Scorer, x: ArrayLike<number>) => sigmoid(linear(m, x));

/**
 * The order of a question's candidates. With a ranker, the sum of its margin and the scorer's:
 * two models trained on different losses agree on the clear cases, and where the ranker alone
 * put a candidate the scorer finds much less likely first (an order date over the invoice date),
 * the sum follows the stronger evidence. Measured on the real invoices: 85 -> 87 of 101 right.
 */
export function scoreOf(
  m: Scorer,
  ranker: Boosted | undefined,
  x: ArrayLike<number>,
): { p: number; rank: number } {
  const z = linear(m, x);
  const p = sigmoid(z);
  return { p, rank: ranker ? linear(ranker, x) + z : p };
}

export const calibrate = (c: Platt, p: number, familiarity = 0, weakest = p) =>
  sigmoid(c.a * logit(p) + c.b + (c.c ?? 0) * familiarity + (c.d ?? 0) * logit(weakest));

let loaded: ScorerModel | null = null;

/** The committed model, read once; its feature list must match the code's. */
export function defaultModel(): ScorerModel {
  if (!loaded) {
    const m = JSON.parse(
      readFileSync(new URL('./model/weights.json', import.meta.url), 'utf8'),
    ) as ScorerModel;
    checkModel(m);
    loaded = m;
  }
  return loaded;
}

export function checkModel(m: ScorerModel): void {
  if (m.features.length !== FEATURES.length || m.features.some((f, i) => f !== FEATURES[i])) {
    throw new Error('model/weights.json was trained on other features: run `npm run train`');
  }
}
