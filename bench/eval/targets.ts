/** The issue 13 targets of `npm run eval`, judged per labelled set on a whole (unfiltered) run. */

/** Accuracy target by set name (the `--docs` folder name); other sets have none. */
export const ACCURACY_TARGETS: Readonly<Record<string, number>> = { dev: 0.85, invoices: 0.8 };
export const ECE_TARGET = 0.1;
export const PAGE_TARGET = 0.95;

export interface TargetCheck {
  set: string;
  what: string;
  value: number | null;
  target: number;
  /** 'min': value must be at least the target; 'max': at most. */
  kind: 'min' | 'max';
  met: boolean;
}

export function checkTargets(
  set: string,
  s: { accuracy: number; ece: number | null; pageAccuracy: number | null },
): TargetCheck[] {
  const check = (what: string, value: number | null, target: number, kind: 'min' | 'max'): TargetCheck => ({
    set,
    what,
    value,
    target,
    kind,
    met: value !== null && (kind === 'min' ? value >= target : value <= target),
  });
  const accuracy = ACCURACY_TARGETS[set];
  return [
    ...(accuracy === undefined ? [] : [check('accuracy', s.accuracy, accuracy, 'min')]),
    check('ECE', s.ece, ECE_TARGET, 'max'),
    check('citation page accuracy', s.pageAccuracy, PAGE_TARGET, 'min'),
  ];
}

export function describeCheck(c: TargetCheck): string {
  const value = c.value === null ? '-' : c.value.toFixed(3);
  return `target ${c.set} ${c.what} ${c.kind === 'min' ? '>=' : '<='} ${c.target} (${value}): ${c.met ? 'MET' : 'NOT MET'}`;
}
