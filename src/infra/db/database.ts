/**
 * The one database surface the rest of the code sees. Both backends speak the same
 * PostgreSQL dialect; only how a connection is obtained differs.
 */
export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<R[]>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn inside BEGIN/COMMIT; any throw rolls back. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** int8 columns hold epoch ms and credit amounts, all far below 2^53. */
export function parseInt8(value: string): number {
  return Number(value);
}
