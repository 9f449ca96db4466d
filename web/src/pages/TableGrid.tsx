import { type KeyboardEvent, type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Bundle, Cell, Column, Row, Run, TableBody } from '../api.ts';
import { navigate } from '../router.tsx';
import { useSession } from '../session.tsx';
import { ErrorNote, RenameForm, Spinner, useInterval, useLoad, when } from '../ui.tsx';
import { blockLabel, confidenceClass, shownValue, ValueView } from '../values.tsx';
import { AddColumnDialog } from './AddColumn.tsx';
import { AddRowsDialog } from './AddRows.tsx';
import { CellPanel } from './CellPanel.tsx';
import { ExportMenu } from './ExportMenu.tsx';
import { RunDialog, type RunScope } from './RunDialog.tsx';

const FINAL = new Set(['SUCCESS', 'ERROR', 'CANCELED']);
const TYPE_LABEL: Record<string, string> = {
  text_quote: 'text',
  number: 'number',
  date: 'date',
  boolean: 'yes/no',
  categorical: 'category',
  list_scalar: 'list',
  image: 'image',
  image_list: 'images',
};

export function TableGridPage(props: { tableId: string }) {
  const { api, canWrite, files, refreshWorkspace } = useSession();
  const { tableId } = props;
  const body = useLoad(() => api.call<TableBody>('GET', `/tables/${tableId}`), [api, tableId]);
  const bundles = useLoad(() => api.call<Bundle[]>('GET', '/bundles'), [api]);
  const [data, setData] = useState<TableBody | null>(null);
  const [runs, setRuns] = useState<Run[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [active, setActive] = useState<{ r: number; c: number }>({ r: 0, c: 0 });
  const [panel, setPanel] = useState<{ rowId: string; columnId: string } | null>(null);
  const [dialog, setDialog] = useState<'column' | 'rows' | null>(null);
  const [runScope, setRunScope] = useState<RunScope | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [showArchived, setShowArchived] = useState(false);
  const gridRef = useRef<HTMLTableElement>(null);

  useEffect(() => {
    if (body.value) setData(body.value);
  }, [body.value]);

  const loadRuns = useCallback(() => {
    api.call<Run[]>('GET', `/tables/${tableId}/runs`).then(
      (rs) => setRuns(rs.sort((a, b) => b.createdAt - a.createdAt)),
      () => {},
    );
  }, [api, tableId]);
  useEffect(loadRuns, [loadRuns]);

  const refresh = useCallback(async () => {
    try {
      setData(await api.call<TableBody>('GET', `/tables/${tableId}`));
    } catch (e) {
      setError(e);
    }
  }, [api, tableId]);

  // Live progress: each unfinished run is polled (its pendingCells), and the grid with it.
  const activeRuns = runs.filter((r) => !FINAL.has(r.status));
  const cellsBusy = (data?.cells ?? []).some((c) => c.status === 'IN_QUEUE' || c.status === 'IN_PROGRESS');
  useInterval(
    () => {
      for (const r of activeRuns) {
        api.call<Run>('GET', `/tables/${tableId}/runs/${r.id}`).then(
          (fresh) => {
            setRuns((rs) => rs.map((x) => (x.id === fresh.id ? fresh : x)));
            if (FINAL.has(fresh.status)) refreshWorkspace();
          },
          () => {},
        );
      }
      refresh();
    },
    // A big table is a big body to fetch: poll it less often.
    (data?.cells.length ?? 0) > 5000 ? 5000 : 1000,
    activeRuns.length > 0 || cellsBusy,
  );

  const columns = useMemo(
    () =>
      (data?.columns ?? [])
        .filter((c) => showArchived || c.archivedAt === null)
        .sort((a, b) => a.sortOrder - b.sortOrder),
    [data, showArchived],
  );
  const rows = useMemo(
    () =>
      (data?.rows ?? [])
        .filter((r) => showArchived || r.archivedAt === null)
        .sort((a, b) => a.sortOrder - b.sortOrder || a.id.localeCompare(b.id)),
    [data, showArchived],
  );
  const cellAt = useMemo(() => {
    const m = new Map<string, Cell>();
    for (const c of data?.cells ?? []) m.set(`${c.rowId}|${c.columnId}`, c);
    return m;
  }, [data]);
  const bundleNames = useMemo(
    () => new Map((bundles.value ?? []).map((b) => [b.id, b.name])),
    [bundles.value],
  );
  const subjectName = (row: Row) =>
    row.subjectType === 'file'
      ? (files.get(row.subjectId)?.fileName ?? row.subjectId)
      : (bundleNames.get(row.subjectId) ?? row.subjectId);

  // Keyboard navigation: the active cell holds the focus.
  useEffect(() => {
    const td = gridRef.current?.querySelector<HTMLElement>(`[data-pos="${active.r}:${active.c}"]`);
    if (td && gridRef.current?.contains(document.activeElement)) td.focus();
  }, [active]);
  const onGridKey = (e: KeyboardEvent) => {
    // Only a focused cell navigates: checkboxes and buttons in the grid keep their own keys.
    if (!(e.target as HTMLElement).matches('td[data-pos]')) return;
    const maxR = rows.length - 1;
    const maxC = columns.length - 1;
    if (maxR < 0 || maxC < 0) return;
    const move = (r: number, c: number) => {
      e.preventDefault();
      setActive({ r: Math.max(0, Math.min(maxR, r)), c: Math.max(0, Math.min(maxC, c)) });
    };
    switch (e.key) {
      case 'ArrowUp':
        return move(active.r - 1, active.c);
      case 'ArrowDown':
        return move(active.r + 1, active.c);
      case 'ArrowLeft':
        return move(active.r, active.c - 1);
      case 'ArrowRight':
        return move(active.r, active.c + 1);
      case 'Home':
        return move(active.r, 0);
      case 'End':
        return move(active.r, maxC);
      case 'Enter': {
        e.preventDefault();
        const row = rows[active.r];
        const col = columns[active.c];
        if (row && col) setPanel({ rowId: row.id, columnId: col.id });
        return;
      }
      case ' ': {
        e.preventDefault();
        const row = rows[active.r];
        if (row) toggleRow(row.id);
        return;
      }
      case 'Escape':
        setPanel(null);
        return;
    }
  };

  const toggleRow = (id: string) =>
    setSelected((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });

  const act = async (fn: () => Promise<unknown>) => {
    try {
      await fn();
      await refresh();
    } catch (e) {
      setError(e);
    }
  };

  const cancelRun = (run: Run) =>
    act(async () => {
      const r = await api.call<Run>('POST', `/tables/${tableId}/runs/${run.id}/cancel`);
      setRuns((rs) => rs.map((x) => (x.id === r.id ? r : x)));
      refreshWorkspace();
    });

  if (body.error && !data) return <ErrorNote error={body.error} />;
  if (!data) return <Spinner label="loading table" />;
  const { table } = data;
  const liveRows = rows.filter((r) => r.archivedAt === null);
  const panelRow = panel && data.rows.find((r) => r.id === panel.rowId);
  const panelCol = panel && data.columns.find((c) => c.id === panel.columnId);

  return (
    <section className={`grid-page${panel ? ' with-panel' : ''}`}>
      <div className="grid-main">
        <header className="table-head">
          {renaming === null ? (
            <h1 data-testid="table-name">
              {table.name}
              {table.archivedAt && <span className="badge">archived</span>}
            </h1>
          ) : (
            <RenameForm
              label="table name"
              value={renaming}
              onChange={setRenaming}
              onSave={(name) =>
                act(async () => {
                  await api.call('PATCH', `/tables/${tableId}`, { name });
                  setRenaming(null);
                })
              }
              onCancel={() => setRenaming(null)}
            />
          )}
          {canWrite && renaming === null && (
            <div className="actions">
              <button type="button" className="secondary" onClick={() => setRenaming(table.name)}>
                Rename
              </button>
              <label className="toggle" title="New documents are run against this table automatically">
                <input
                  type="checkbox"
                  checked={table.standing}
                  onChange={(e) =>
                    act(() => api.call('PATCH', `/tables/${tableId}`, { standing: e.target.checked }))
                  }
                />{' '}
                Standing
              </label>
              {!table.archivedAt && (
                <button
                  type="button"
                  className="danger secondary"
                  onClick={() => {
                    if (!window.confirm(`Archive table ${table.name}? There is no un-archive.`)) return;
                    act(async () => {
                      await api.call('DELETE', `/tables/${tableId}`);
                      navigate('/tables');
                    });
                  }}
                >
                  Archive
                </button>
              )}
            </div>
          )}
        </header>

        <div className="toolbar">
          {canWrite && (
            <>
              <button type="button" onClick={() => setDialog('column')}>
                + Column
              </button>
              <button type="button" onClick={() => setDialog('rows')}>
                + Rows
              </button>
              <button
                type="button"
                data-testid="run-table"
                disabled={columns.length === 0 || liveRows.length === 0}
                onClick={() => setRunScope({ label: 'the whole table' })}
              >
                ▶ Run table
              </button>
              <button
                type="button"
                disabled={selected.size === 0}
                onClick={() =>
                  setRunScope({ label: `${selected.size} selected row(s)`, rowIds: [...selected] })
                }
              >
                ▶ Run selected rows
              </button>
            </>
          )}
          <ExportMenu tableId={tableId} onError={setError} />
          <label className="toggle">
            <input
              type="checkbox"
              checked={showArchived}
              onChange={(e) => setShowArchived(e.target.checked)}
            />{' '}
            Show archived
          </label>
        </div>

        <ErrorNote error={error} onClose={() => setError(null)} />
        <RunsBar runs={runs} onCancel={canWrite ? cancelRun : undefined} />

        {columns.length === 0 || rows.length === 0 ? (
          <p className="muted">
            {columns.length === 0 && 'Add a column: each column is a question with a typed answer. '}
            {rows.length === 0 && 'Add rows: each row is a document or a bundle of documents.'}
          </p>
        ) : null}
        <div className="grid-scroll">
          <table
            className="grid"
            ref={gridRef}
            aria-label={`table ${table.name}`}
            onKeyDown={onGridKey}
            data-testid="grid"
          >
            <thead>
              <tr>
                <th className="sel">
                  <input
                    type="checkbox"
                    aria-label="select all rows"
                    checked={liveRows.length > 0 && selected.size === liveRows.length}
                    onChange={(e) =>
                      setSelected(e.target.checked ? new Set(liveRows.map((r) => r.id)) : new Set())
                    }
                  />
                </th>
                <th className="subject">Document</th>
                {columns.map((col) => (
                  <ColumnHead
                    key={col.id}
                    column={col}
                    onRun={
                      canWrite ? () => setRunScope({ label: `column ${col.name}`, column: col }) : undefined
                    }
                    onArchive={
                      canWrite && col.archivedAt === null
                        ? () => {
                            if (window.confirm(`Archive column ${col.name}? Its cells stay readable.`))
                              act(() => api.call('DELETE', `/tables/${tableId}/columns/${col.id}`));
                          }
                        : undefined
                    }
                  />
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, r) => (
                <tr key={row.id} className={row.archivedAt ? 'archived' : ''} data-row-id={row.id}>
                  <td className="sel">
                    <input
                      type="checkbox"
                      aria-label={`select ${subjectName(row)}`}
                      checked={selected.has(row.id)}
                      disabled={row.archivedAt !== null}
                      onChange={() => toggleRow(row.id)}
                    />
                  </td>
                  <th scope="row" className="subject">
                    <span className="kind">{row.subjectType === 'bundle' ? '▣' : '▤'}</span>{' '}
                    {subjectName(row)}
                    {canWrite && row.archivedAt === null && (
                      <button
                        type="button"
                        className="link small remove"
                        title="remove this row from the table"
                        onClick={() => {
                          if (window.confirm(`Remove ${subjectName(row)} from this table?`))
                            act(() => api.call('DELETE', `/tables/${tableId}/rows/${row.id}`));
                        }}
                      >
                        ×
                      </button>
                    )}
                  </th>
                  {columns.map((col, c) => (
                    <GridCell
                      key={col.id}
                      cell={cellAt.get(`${row.id}|${col.id}`)}
                      column={col}
                      row={row}
                      pos={`${r}:${c}`}
                      active={active.r === r && active.c === c}
                      open={panel?.rowId === row.id && panel.columnId === col.id}
                      onOpen={() => {
                        setActive({ r, c });
                        setPanel({ rowId: row.id, columnId: col.id });
                      }}
                    />
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="muted hint">
          Arrow keys move between cells, Enter opens one, Space selects its row, Escape closes the panel.
        </p>
      </div>

      {panel && panelRow && panelCol && (
        <CellPanel
          tableId={tableId}
          row={panelRow}
          rowName={subjectName(panelRow)}
          column={panelCol}
          cell={cellAt.get(`${panelRow.id}|${panelCol.id}`)}
          onChanged={refresh}
          onClose={() => {
            setPanel(null);
            gridRef.current?.querySelector<HTMLElement>(`[data-pos="${active.r}:${active.c}"]`)?.focus();
          }}
        />
      )}
      {dialog === 'column' && (
        <AddColumnDialog
          tableId={tableId}
          nextSortOrder={(data.columns.reduce((m, c) => Math.max(m, c.sortOrder), -1) ?? -1) + 1}
          onClose={() => setDialog(null)}
          onAdded={() => {
            setDialog(null);
            refresh();
          }}
        />
      )}
      {dialog === 'rows' && (
        <AddRowsDialog
          tableId={tableId}
          rows={data.rows}
          bundles={bundles.value ?? []}
          onClose={() => setDialog(null)}
          onAdded={() => {
            setDialog(null);
            refresh();
          }}
        />
      )}
      {runScope && (
        <RunDialog
          tableId={tableId}
          scope={runScope}
          onClose={() => setRunScope(null)}
          onStarted={(run) => {
            setRunScope(null);
            setSelected(new Set());
            if (run) setRuns((rs) => [run, ...rs.filter((x) => x.id !== run.id)]);
            refresh();
          }}
        />
      )}
    </section>
  );
}

function ColumnHead(props: { column: Column; onRun?: () => void; onArchive?: () => void }) {
  const { column } = props;
  return (
    <th
      className={`col${column.archivedAt ? ' archived' : ''}`}
      data-column-id={column.id}
      title={column.prompt}
    >
      <div className="col-name">{column.name}</div>
      <div className="col-meta">
        {TYPE_LABEL[column.outputType] ?? column.outputType} · {column.creditRate} cr
        {column.isCompositional && ' · compositional'}
        {column.archivedAt && ' · archived'}
      </div>
      <div className="col-actions">
        {props.onRun && column.archivedAt === null && (
          <button
            type="button"
            className="link small"
            onClick={props.onRun}
            title={`run column ${column.name}`}
          >
            ▶ run
          </button>
        )}
        {props.onArchive && (
          <button type="button" className="link small" onClick={props.onArchive} title="archive column">
            archive
          </button>
        )}
      </div>
    </th>
  );
}

function GridCell(props: {
  cell: Cell | undefined;
  column: Column;
  row: Row;
  pos: string;
  active: boolean;
  open: boolean;
  onOpen: () => void;
}) {
  const { api } = useSession();
  const { cell, column } = props;
  const status = cell?.status ?? 'NONE';
  let content: ReactNode = null;
  let extra = '';
  let title = '';
  if (!cell || status === 'NOT_STARTED') {
    content = <span className="muted">·</span>;
  } else if (status === 'IN_QUEUE' || status === 'IN_PROGRESS') {
    content = (
      <span className="busy">
        <Spinner /> {status === 'IN_QUEUE' ? 'queued' : 'running'}
      </span>
    );
  } else if (status === 'ERROR') {
    const block = blockLabel(cell.blockReason);
    extra = ' error';
    title = cell.statusText ?? '';
    content = block ? (
      <span className="block" data-testid="block-reason">
        {block}
      </span>
    ) : (
      <span className="err">Error: {cell.statusText ?? 'failed'}</span>
    );
  } else {
    extra = ` ${confidenceClass(cell.confidence)}`;
    title = cell.confidence !== null ? `confidence ${cell.confidence.toFixed(2)}` : '';
    content = (
      <>
        <ValueView value={shownValue(cell)} column={column} api={api} />
        {cell.humanOverride && <span className="mark edited">edited</span>}
      </>
    );
  }
  if (cell?.stale) {
    extra += ' stale';
    title = `${title ? `${title}; ` : ''}stale: the column or bundle changed since this answer`;
  }
  return (
    <td
      className={`cell${extra}${props.active ? ' active' : ''}${props.open ? ' open' : ''}`}
      tabIndex={props.active ? 0 : -1}
      data-pos={props.pos}
      data-testid="cell"
      data-row-id={props.row.id}
      data-column-id={column.id}
      data-status={status}
      title={title || undefined}
      onClick={props.onOpen}
      onKeyDown={() => {}}
    >
      {content}
      {cell?.stale && <span className="mark stale-mark">stale</span>}
    </td>
  );
}

function RunsBar(props: { runs: Run[]; onCancel?: (run: Run) => void }) {
  const [all, setAll] = useState(false);
  const shown = all ? props.runs : props.runs.slice(0, 3);
  if (props.runs.length === 0) return null;
  return (
    <div className="runs" data-testid="runs">
      {shown.map((run) => {
        const done = run.totalCells - run.pendingCells;
        const live = !FINAL.has(run.status);
        return (
          <div
            key={run.id}
            className={`run ${run.status.toLowerCase()}`}
            data-testid="run"
            data-status={run.status}
          >
            <span className="run-status">{run.status.replace('_', ' ')}</span>
            <progress max={Math.max(1, run.totalCells)} value={done} aria-label="run progress" />
            <span>
              {done} / {run.totalCells} cells
              {live && run.pendingCells > 0 ? `, ${run.pendingCells} pending` : ''}
            </span>
            <span className="muted">{when(run.createdAt)}</span>
            {live && props.onCancel && (
              <button
                type="button"
                className="danger small"
                data-testid="cancel-run"
                onClick={() => props.onCancel?.(run)}
              >
                Cancel
              </button>
            )}
          </div>
        );
      })}
      {props.runs.length > 3 && (
        <button type="button" className="link small" onClick={() => setAll(!all)}>
          {all ? 'fewer runs' : `all ${props.runs.length} runs`}
        </button>
      )}
    </div>
  );
}
