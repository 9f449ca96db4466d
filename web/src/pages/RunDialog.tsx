import { useState } from 'react';
import type { Column, Preview, Run } from '../api.ts';
import { useSession } from '../session.tsx';
import { ErrorNote, Modal, Spinner, useLoad } from '../ui.tsx';

export interface RunScope {
  label: string;
  rowIds?: string[];
  /** One column: started with POST …/columns/:columnId/run. */
  column?: Column;
}

/** Shows the preview cost (free, an upper bound) and starts the run only when confirmed. */
export function RunDialog(props: {
  tableId: string;
  scope: RunScope;
  onClose: () => void;
  onStarted: (run: Run | null) => void;
}) {
  const { api, workspace, refreshWorkspace } = useSession();
  const { tableId, scope } = props;
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [nothing, setNothing] = useState<string | null>(null);
  const preview = useLoad(() => {
    const q = new URLSearchParams();
    if (scope.rowIds) q.set('rowIds', scope.rowIds.join(','));
    if (scope.column) q.set('columnIds', scope.column.id);
    const qs = q.toString();
    return api.call<Preview>('GET', `/tables/${tableId}/runs/preview${qs ? `?${qs}` : ''}`);
  }, [api, tableId, scope]);

  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      const res = scope.column
        ? await api.call<{ run: Run | null; cells: number; skippedRowIds: string[] }>(
            'POST',
            `/tables/${tableId}/columns/${scope.column.id}/run`,
          )
        : await api.call<{ run: Run | null; cells: number; skippedRowIds: string[] }>(
            'POST',
            `/tables/${tableId}/runs`,
            scope.rowIds ? { rowIds: scope.rowIds } : {},
          );
      refreshWorkspace();
      if (!res.run) {
        setNothing(
          'Nothing was started: every cell in scope was skipped (documents still being read, empty bundles, or overridden cells).',
        );
        setBusy(false);
        return;
      }
      props.onStarted(res.run);
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };

  const p = preview.value;
  return (
    <Modal title={`Run ${scope.label}`} onClose={props.onClose}>
      {preview.loading && !p && <Spinner label="estimating cost" />}
      <ErrorNote error={preview.error ?? error} />
      {p && (
        <div className="preview" data-testid="run-preview">
          <p>
            <strong data-testid="preview-cells">{p.cells}</strong> cell{p.cells === 1 ? '' : 's'} to fill,
            costing at most <strong data-testid="preview-cost">{p.cost}</strong> credit
            {p.cost === 1 ? '' : 's'}.
          </p>
          <p className="muted">
            Only cells that succeed are charged. Cells with a human override are not rerun.
            {workspace && ` Balance: ${workspace.balance} credits.`}
          </p>
          {p.skippedRowIds.length > 0 && (
            <p className="warn">
              {p.skippedRowIds.length} row(s) will be skipped: their document is still being read or their
              bundle is empty.
            </p>
          )}
          {workspace && p.cost > workspace.balance && workspace.balance > 0 && (
            <p className="warn">The estimate is above the balance: some cells may end “Out of credits”.</p>
          )}
        </div>
      )}
      {nothing && <p className="warn">{nothing}</p>}
      <div className="buttons">
        <button type="button" className="secondary" onClick={props.onClose}>
          {nothing ? 'Close' : 'Cancel'}
        </button>
        {!nothing && (
          <button
            type="button"
            data-testid="confirm-run"
            disabled={!p || busy || p.cells === 0}
            onClick={start}
          >
            {busy ? 'Starting…' : p ? `Run for up to ${p.cost} credits` : 'Run'}
          </button>
        )}
      </div>
    </Modal>
  );
}
