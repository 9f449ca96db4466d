import type { Queryable } from '../db/database.ts';
import { newId } from '../ids.ts';

export type RedemptionOutcome = 'served' | 'invalid_token' | 'expired_token' | 'not_found';

export async function recordRedemption(
  q: Queryable,
  r: {
    /** When the link was presented (epoch ms). */
    at: number;
    targetId: string;
    workspaceId: string | null;
    outcome: RedemptionOutcome;
    tokenExpiresAt: number | null;
    remoteAddr: string | null;
    userAgent: string | null;
  },
): Promise<void> {
  await q.query(
    `INSERT INTO share_redemptions (id, target_id, workspace_id, outcome, token_expires_at, remote_addr, user_agent, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      newId('shr'),
      r.targetId.slice(0, 80),
      r.workspaceId,
      r.outcome,
      r.tokenExpiresAt,
      r.remoteAddr,
      r.userAgent?.slice(0, 300) ?? null,
      r.at,
    ],
  );
}
