import { signingKey, WEBHOOK_RETRY_WINDOW_MS, WEBHOOK_TASK } from '../domain/webhooks.ts';
import type { Clock } from '../infra/clock.ts';
import type { Database } from '../infra/db/database.ts';
import { newId } from '../infra/ids.ts';
import { enqueue } from '../infra/queue.ts';
import { repos } from '../infra/repos/index.ts';
import type { TaskHandler } from '../infra/worker-runner.ts';
import { postWebhook } from './post.ts';
import { signatureHeaders } from './sign.ts';

/** Waits between attempts: quick at first, then hours, until 24 hours after the event. */
const BACKOFF_MS = [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000];

export function nextDelayMs(attempts: number): number {
  return BACKOFF_MS[Math.min(attempts - 1, BACKOFF_MS.length - 1)]!;
}

export interface DeliverDeps {
  db: Database;
  clock: Clock;
  /** The deployment's secret the endpoint keys are derived from (see domain/webhooks.ts). */
  masterSecret: string;
  timeoutMs: number;
  /** Loopback and private targets allowed (tests, local use): WEBHOOK_ALLOW_PRIVATE. */
  allowPrivate: boolean;
}

/**
 * The `webhook.deliver` task: one attempt at one delivery. A failure is recorded and the
 * delivery queued again with backoff (a new task row, so the wait survives restarts) until
 * 24 hours after the event; an endpoint whose deliveries have failed for 24 hours is
 * disabled. A success clears the endpoint's failure clock.
 */
export function webhookHandler(deps: DeliverDeps): TaskHandler {
  return {
    async run(deliveryId, { signal }) {
      const d = await repos(deps.db).webhooks.findDelivery(deliveryId);
      if (d?.status !== 'pending') return;
      const w = await repos(deps.db).webhooks.findWebhook(d.workspace_id, d.webhook_id);
      if (!w) return; // deleted: its deliveries went with it
      if (!w.enabled) {
        await repos(deps.db).webhooks.updateDelivery(
          d.id,
          { status: 'failed', next_attempt_at: null },
          deps.clock(),
        );
        return;
      }
      const sentAt = deps.clock();
      const key = signingKey(deps.masterSecret, w.secret_salt);
      const outcome = await postWebhook(
        w.url,
        d.payload,
        signatureHeaders(key, d.id, Math.floor(sentAt / 1000), d.payload),
        { timeoutMs: deps.timeoutMs, allowPrivate: deps.allowPrivate, signal },
      );
      if (signal.aborted) return; // stopping: the task is handed back and the attempt made again
      const ok = outcome.error === null;
      await deps.db.transaction(async (tx) => {
        const r = repos(tx).webhooks;
        const now = deps.clock();
        const current = await r.findDelivery(d.id, { forUpdate: true });
        if (current?.status !== 'pending') return;
        const attempts = current.attempts + 1;
        await r.insertAttempt({
          id: newId('wha'),
          delivery_id: d.id,
          attempted_at: sentAt,
          status_code: outcome.statusCode,
          error: outcome.error,
          latency_ms: outcome.latencyMs,
        });
        const hook = await r.findWebhook(w.workspace_id, w.id, { forUpdate: true });
        if (ok) {
          await r.updateDelivery(d.id, { status: 'succeeded', attempts, next_attempt_at: null }, now);
          if (hook?.failing_since !== null) await r.updateWebhook(w.id, { failing_since: null }, now);
          return;
        }
        const failingSince = hook?.failing_since ?? sentAt;
        if (hook && hook.failing_since === null)
          await r.updateWebhook(w.id, { failing_since: failingSince }, now);
        if (hook?.enabled && now - failingSince >= WEBHOOK_RETRY_WINDOW_MS) {
          await r.updateWebhook(
            w.id,
            {
              enabled: false,
              disabled_reason: `Disabled after 24 hours of failed deliveries (last: ${outcome.error}).`,
            },
            now,
          );
          await r.updateDelivery(d.id, { status: 'failed', attempts, next_attempt_at: null }, now);
          return;
        }
        // The last attempt falls at the end of the window, 24 hours after the event.
        const end = current.created_at + WEBHOOK_RETRY_WINDOW_MS;
        const next = Math.min(now + nextDelayMs(attempts), end);
        if (now >= end) {
          await r.updateDelivery(d.id, { status: 'failed', attempts, next_attempt_at: null }, now);
          return;
        }
        await r.updateDelivery(d.id, { attempts, next_attempt_at: next }, now);
        await enqueue(tx, WEBHOOK_TASK, d.id, now, { runAfter: next, workspaceId: d.workspace_id });
      });
    },
  };
}
