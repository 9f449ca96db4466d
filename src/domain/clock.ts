/** The calendar month (UTC) that a spend cap counts against, e.g. "2026-11". */
export function spendMonth(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 7);
}
