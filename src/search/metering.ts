import { changeBalance, currentMonthSpend } from '../domain/credits.ts';
import { AppError, errors } from '../domain/errors.ts';
import type { Database } from '../infra/db/database.ts';
import { randomBase62 } from '../infra/ids.ts';
import { countCreditsCharged } from '../infra/metrics.ts';
import { repos } from '../infra/repos/index.ts';

/** An idempotency key names one charge for this long (interface.md 7: "retry is safe"). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface MeterRequest {
  workspaceId: string;
  keyId: string | null;
  idempotencyKey: string | null;
  requestHash: string;
  price: number;
}

/** D3: 402 from search is plain text, unlike a run's JSON 402. */
const insufficient = () =>
  errors.paymentRequired(
    'Insufficient credits: a search costs credits and the balance is too low.',
    undefined,
    true,
  );
const overCap = () =>
  errors.paymentRequired(
    "Spend cap reached: this month's spending has reached the workspace's cap.",
    undefined,
    true,
  );

/**
 * Any failure of the metering store itself is a 503 (section 7): nothing was charged, so
 * the client may retry. Our own refusals (402, 400, 404) pass through; a database error the
 * database layer already turned into a status (a full disk's 503, a race's 409, a value's
 * 400: those carry the database error as `cause`) is still the store failing, so 503 too.
 */
async function metered<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError && (err as { cause?: unknown }).cause === undefined) throw err;
    const unavailable = errors.unavailable(
      'Search metering is unavailable right now; nothing was charged. Retry the request.',
    );
    // For the error handler's log line: what failed underneath (never shown to the client).
    (unavailable as AppError & { cause?: unknown }).cause = (err as { cause?: unknown })?.cause ?? err;
    throw unavailable;
  }
}

/**
 * Before the search runs: true when an earlier request with this idempotency key already
 * paid (the same body within 24 h), so this one must not charge. Otherwise checks that the
 * balance and the month's spend cap leave room for the price, refusing with 402.
 */
export function precheck(db: Database, r: MeterRequest, now: number): Promise<{ alreadyPaid: boolean }> {
  return metered(async () => {
    if (r.idempotencyKey !== null) {
      const earlier = await repos(db).searchRequests.findRecentSearch(
        r.workspaceId,
        r.idempotencyKey,
        now - IDEMPOTENCY_WINDOW_MS,
      );
      if (earlier) {
        if (earlier.request_hash !== r.requestHash) {
          throw errors.badRequest('This idempotency-key was used within 24 hours for a different search.');
        }
        return { alreadyPaid: true };
      }
    }
    const w = await repos(db).workspaces.findWorkspace(r.workspaceId);
    if (!w) throw errors.notFound('Workspace');
    checkRoom(w.balance, w.spend_cap, currentMonthSpend(w, now), r.price);
    return { alreadyPaid: false };
  });
}

function checkRoom(balance: number, cap: number | null, monthSpend: number, price: number): void {
  if (price === 0) return;
  if (balance < price) throw insufficient();
  if (cap !== null && monthSpend + price > cap) throw overCap();
}

/**
 * After the search computed its results: records it and charges the price with its ledger
 * row in one transaction, so either both happen or neither. A concurrent request with the
 * same idempotency key that committed first wins and this one charges nothing.
 */
export async function charge(db: Database, r: MeterRequest, resultCount: number, now: number): Promise<void> {
  const charged = await metered(() =>
    db.transaction(async (tx) => {
      const w = await repos(tx).workspaces.findWorkspace(r.workspaceId, { forUpdate: true });
      if (!w) throw errors.notFound('Workspace');
      checkRoom(w.balance, w.spend_cap, currentMonthSpend(w, now), r.price);
      const id = `srch_${randomBase62(20)}`;
      const recorded = await repos(tx).searchRequests.insertSearchRequest(
        {
          id,
          workspace_id: r.workspaceId,
          key_id: r.keyId,
          idempotency_key: r.idempotencyKey,
          request_hash: r.requestHash,
          price: r.price,
          result_count: resultCount,
          created_at: now,
        },
        now - IDEMPOTENCY_WINDOW_MS,
      );
      if (!recorded || r.price === 0) return 0;
      await changeBalance(
        tx,
        {
          workspaceId: r.workspaceId,
          amount: -r.price,
          reason: 'search',
          refId: id,
          actorId: r.keyId,
          isSpend: true,
        },
        now,
      );
      return r.price;
    }),
  );
  countCreditsCharged('search', charged);
}
