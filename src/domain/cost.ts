/**
 * The price of a cell (interface.md section 8, decisions.md D3), one function used by both
 * the preview and the charge, so a preview is an upper bound by the same arithmetic.
 */
export interface PricedColumn {
  creditRate: number;
  isCompositional: boolean;
}

/**
 * Extra credits a bundled row costs. Non-compositional columns read each document apart:
 * 4 per member beyond the third. Compositional ones spread one budget: 4 per six members.
 */
export function bundleSurcharge(isCompositional: boolean, members: number): number {
  if (isCompositional) return 4 * Math.floor(members / 6);
  return 4 * Math.max(0, members - 3);
}

/** `members` is null for a single-file row, else the number of documents in the bundle. */
export function cellPrice(column: PricedColumn, members: number | null): number {
  if (members === null) return column.creditRate;
  return column.creditRate + bundleSurcharge(column.isCompositional, members);
}
