import { queryFigures } from '../src/infra/db/named-query.ts';

/** The named queries that took the most database time in this process since the last reset. */
export function printSlowestQueries(title: string, top = 8): void {
  const rows = queryFigures().slice(0, top);
  console.log(title);
  if (rows.length === 0) {
    console.log('  (no named queries ran)');
    return;
  }
  const width = Math.max(...rows.map((r) => r.name.length));
  for (const r of rows) {
    console.log(
      `  ${r.name.padEnd(width)}  ${String(r.calls).padStart(6)} calls  total ${r.totalMs.toFixed(0).padStart(6)} ms` +
        `  mean ${r.meanMs.toFixed(2).padStart(7)} ms  p95 ${r.p95Ms.toFixed(2).padStart(7)} ms  max ${r.maxMs.toFixed(1).padStart(7)} ms`,
    );
  }
}
