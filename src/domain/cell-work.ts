import type { AnswerValue, Citation, EngineAnswer, Fact } from '../engine/types.ts';
import type { Clock } from '../infra/clock.ts';
import type { Database, Queryable } from '../infra/db/database.ts';
import { newId } from '../infra/ids.ts';
import { countCreditsCharged } from '../infra/metrics.ts';
import {
  type CellFactRow,
  type ClaimedCell,
  type EndedCell,
  repos,
  type StartedCell,
  type SubjectDocument,
  type WorkspaceRow,
} from '../infra/repos/index.ts';
import { cellPrice } from './cost.ts';
import { currentMonthSpend, holdCredits, settleCredits } from './credits.ts';
import { settleRuns } from './run-settle.ts';

/** D3 values of `blockReason`. */
export type BlockReason = 'insufficient_credits' | 'spend_cap';

/** A cell a worker has started: priced, held, and with what the engine needs. */
export interface CellJob {
  cellId: string;
  runId: string;
  holdId: string;
  price: number;
  column: {
    prompt: string;
    outputType: string;
    config: string | null;
    isCompositional: boolean;
    locale: string | null;
  };
  subjectType: 'file' | 'bundle';
  documents: SubjectDocument[];
}

export interface ClaimOptions {
  claimId: string;
  limit: number;
  leaseMs: number;
  /** A cell whose worker died this many times ends ERROR instead of killing another. */
  maxAttempts: number;
}

const ended = (
  id: string,
  status: EndedCell['status'],
  statusText: string | null,
  blockReason: BlockReason | null = null,
): EndedCell => ({
  id,
  status,
  statusText,
  blockReason,
  value: null,
  citations: '[]',
  confidence: null,
});

/**
 * IN_QUEUE → IN_PROGRESS (3.2, D4) for up to `limit` cells in one transaction: each cell's
 * price is checked against the balance and the month's spend cap and held, or the cell ends
 * ERROR with its blockReason. A cell taken over from a dead worker first gets its old hold
 * back. Returns the started cells and the runs that may have finished.
 */
export async function claimCellJobs(
  db: Database,
  opts: ClaimOptions,
  clock: Clock,
): Promise<{ jobs: CellJob[]; claimed: number }> {
  const now = clock();
  const out = await db.transaction(async (tx) => {
    const claimed = await repos(tx).cellQueue.claimCells(opts.limit, now);
    if (claimed.length === 0) return { jobs: [], runIds: [], claimed: 0 };
    const fileIds = claimed.filter((c) => c.subject_type === 'file').map((c) => c.subject_id);
    const bundleIds = claimed.filter((c) => c.subject_type === 'bundle').map((c) => c.subject_id);
    const docs = new Map<string, SubjectDocument[]>();
    for (const d of await repos(tx).runSubjects.listSubjectDocuments(
      [...new Set(fileIds)],
      [...new Set(bundleIds)],
      now,
    )) {
      const list = docs.get(d.subject_id) ?? [];
      list.push(d);
      docs.set(d.subject_id, list);
    }
    // Cells taken over from a dead worker give their old holds back before anything is priced.
    const abandoned = claimed.flatMap((c) => (c.hold_id ? [c.hold_id] : []));
    await settleCredits(tx, abandoned, 'released', now);
    const budgets = await lockBudgets(tx, claimed, now);

    const toHold: { c: ClaimedCell; price: number; documents: SubjectDocument[] }[] = [];
    const stopped: EndedCell[] = [];
    for (const c of claimed) {
      const documents = docs.get(c.subject_id) ?? [];
      const members = c.subject_type === 'bundle' ? documents.length : null;
      const price = cellPrice({ creditRate: c.credit_rate, isCompositional: c.is_compositional }, members);
      const budget = budgets.get(c.workspace_id)!;
      if (c.column_archived_at !== null || c.row_archived_at !== null) {
        // Archived after it was queued: never targeted, never charged; back to blank.
        stopped.push(ended(c.id, 'NOT_STARTED', null));
      } else if (c.attempts >= opts.maxAttempts) {
        stopped.push(
          ended(c.id, 'ERROR', `Extraction stopped ${c.attempts} times without finishing; not charged.`),
        );
      } else if (documents.length === 0) {
        stopped.push(
          ended(
            c.id,
            'ERROR',
            'The document is no longer available (deleted, expired or never read); not charged.',
          ),
        );
      } else if (budget.balance < price) {
        stopped.push(
          ended(
            c.id,
            'ERROR',
            `Out of credits: this cell costs ${price} and the balance is ${budget.balance}.`,
            'insufficient_credits',
          ),
        );
      } else if (budget.cap !== null && budget.spent + price > budget.cap) {
        stopped.push(
          ended(
            c.id,
            'ERROR',
            `Spend cap: this cell costs ${price}, and ${budget.spent} of the month's ${budget.cap} credits are spent or held.`,
            'spend_cap',
          ),
        );
      } else {
        budget.balance -= price;
        budget.spent += price;
        toHold.push({ c, price, documents });
      }
    }
    const started: StartedCell[] = [];
    const jobs: CellJob[] = [];
    for (const [workspaceId, budget] of budgets) {
      const mine = toHold.filter((x) => x.c.workspace_id === workspaceId);
      const items = mine.map((x) => ({ cellId: x.c.id, runId: x.c.run_id, amount: x.price }));
      const holdIds = await holdCredits(tx, budget.workspace, items, now);
      mine.forEach(({ c, price, documents }, i) => {
        started.push({
          id: c.id,
          holdId: holdIds[i]!,
          columnVersion: c.column_version,
          bundleVersion: c.bundle_version ?? 1,
        });
        jobs.push(jobOf(c, holdIds[i]!, price, documents));
      });
    }
    await repos(tx).cellQueue.markCellsStarted(started, opts.claimId, now + opts.leaseMs, now);
    await repos(tx).cellQueue.markCellsEnded(stopped, now);
    await repos(tx).cellFacts.replaceCellFacts(
      stopped.map((s) => s.id),
      [],
    );
    const runIds = [...new Set(stopped.map((s) => claimed.find((c) => c.id === s.id)!.run_id))];
    return { jobs, runIds, claimed: claimed.length };
  });
  // Cells that ended here may have been their runs' last.
  await settleRuns(db, out.runIds, clock());
  return { jobs: out.jobs, claimed: out.claimed };
}

interface Budget {
  workspace: WorkspaceRow;
  balance: number;
  /** Month spend plus credits held by cells in progress: both count against the cap. */
  spent: number;
  cap: number | null;
}

/** Locks each workspace once, in id order (after the cells: the one lock order). */
async function lockBudgets(
  tx: Queryable,
  claimed: readonly ClaimedCell[],
  now: number,
): Promise<Map<string, Budget>> {
  const budgets = new Map<string, Budget>();
  for (const id of [...new Set(claimed.map((c) => c.workspace_id))].sort()) {
    const w = await repos(tx).workspaces.findWorkspace(id, { forUpdate: true });
    if (!w) continue;
    budgets.set(id, {
      workspace: w,
      balance: w.balance,
      spent: currentMonthSpend(w, now) + (await repos(tx).holds.heldTotal(id)),
      cap: w.spend_cap,
    });
  }
  return budgets;
}

function jobOf(c: ClaimedCell, holdId: string, price: number, documents: SubjectDocument[]): CellJob {
  return {
    cellId: c.id,
    runId: c.run_id,
    holdId,
    price,
    column: {
      prompt: c.prompt,
      outputType: c.output_type,
      config: c.config,
      isCompositional: c.is_compositional,
      locale: c.locale,
    },
    subjectType: c.subject_type,
    documents,
  };
}

export interface CellOutcome {
  job: CellJob;
  answer: EngineAnswer;
}

/**
 * IN_PROGRESS → SUCCESS (hold captured) or ERROR (hold released), with the facts, for every
 * cell this claim still holds, in one transaction. A cell taken over meanwhile (lease lost,
 * superseded by a later run) is left alone: its hold was already settled by whoever took it.
 */
export async function finishCellJobs(
  db: Database,
  claimId: string,
  outcomes: readonly CellOutcome[],
  clock: Clock,
): Promise<string[]> {
  const now = clock();
  let captured = 0;
  const runIds = await db.transaction(async (tx) => {
    const mine = await repos(tx).cellQueue.lockClaimedCells(
      claimId,
      outcomes.map((o) => o.job.cellId),
    );
    const byId = new Map(outcomes.map((o) => [o.job.cellId, o]));
    const done: EndedCell[] = [];
    const facts: CellFactRow[] = [];
    const capture: string[] = [];
    const release: string[] = [];
    for (const cell of mine) {
      const { job, answer } = byId.get(cell.id)!;
      if (answer.status === 'SUCCESS') {
        if (cell.hold_id) capture.push(cell.hold_id);
        done.push({
          id: cell.id,
          status: 'SUCCESS',
          statusText: null,
          blockReason: null,
          value: JSON.stringify(answer.value),
          citations: JSON.stringify(answer.citations),
          confidence: answer.confidence,
        });
      } else {
        if (cell.hold_id) release.push(cell.hold_id);
        done.push(ended(cell.id, 'ERROR', answer.statusText));
      }
      facts.push(...factRows(job, answer, now));
    }
    captured = (await settleCredits(tx, capture, 'captured', now)).reduce((sum, h) => sum + h.amount, 0);
    await settleCredits(tx, release, 'released', now);
    await repos(tx).cellQueue.markCellsEnded(done, now);
    await repos(tx).cellFacts.replaceCellFacts(
      done.map((d) => d.id),
      facts,
    );
    return [...new Set(mine.map((c) => c.run_id))];
  });
  countCreditsCharged('cell', captured);
  await settleRuns(db, runIds, clock());
  return runIds;
}

/** 2.6: one fact per document; a single-file row's one fact equals the answer. */
function factRows(job: CellJob, answer: EngineAnswer, now: number): CellFactRow[] {
  let facts: Fact[] = answer.facts;
  if (facts.length === 0 && job.subjectType === 'file' && answer.status === 'SUCCESS') {
    const d = job.documents[0]!;
    facts = [
      {
        fileId: d.file_id,
        role: d.role,
        effectiveAt: d.effective_at,
        sortOrder: d.sort_order,
        status: 'SUCCESS',
        value: answer.value,
        citations: answer.citations,
        confidence: answer.confidence,
      },
    ];
  }
  return facts.map((f) => ({
    id: newId('rfac'),
    cell_id: job.cellId,
    file_id: f.fileId,
    role: f.role,
    effective_at: f.effectiveAt,
    sort_order: f.sortOrder,
    status: f.status,
    value: f.value === null ? null : JSON.stringify(f.value as AnswerValue),
    citations: JSON.stringify(f.citations as Citation[]),
    confidence: f.confidence,
    created_at: now,
  }));
}

/** Keeps this claim's cells leased while the engine works; 0 means every one was taken over. */
export function renewCellLeases(
  db: Queryable,
  claimId: string,
  leaseMs: number,
  now: number,
): Promise<number> {
  return repos(db).cellQueue.extendCellLeases(claimId, now + leaseMs);
}

/** A worker stopping politely: its started cells go back to the queue and their holds back to the balance. */
export async function handBackCells(
  db: Database,
  claimId: string,
  cellIds: readonly string[],
  now: number,
): Promise<void> {
  if (cellIds.length === 0) return;
  await db.transaction(async (tx) => {
    const mine = await repos(tx).cellQueue.lockClaimedCells(claimId, cellIds);
    await settleCredits(
      tx,
      mine.flatMap((c) => (c.hold_id ? [c.hold_id] : [])),
      'released',
      now,
    );
    await repos(tx).cellQueue.requeueCells(
      mine.map((c) => c.id),
      now,
    );
  });
}

/** Finishes runs whose settle was lost (a crash between a cell's commit and its settle). */
export async function settleStrayRuns(db: Database, now: number): Promise<void> {
  await settleRuns(db, await repos(db).runs.listUnsettledRuns(100), now);
}
