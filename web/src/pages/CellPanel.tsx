import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import type { Box, Cell, CellEvent, CellFact, Citation, Column, Row, Scalar, Typed } from '../api.ts';
import { type PageTarget, PageViewer } from '../PageViewer.tsx';
import { useSession } from '../session.tsx';
import { ErrorNote, Spinner, useLoad, when } from '../ui.tsx';
import { blockLabel, isRegions, parseConfig, ScalarView, ValueView } from '../values.tsx';

/** One cell: its answer, the typed override editor, citations, facts and event history. */
export function CellPanel(props: {
  tableId: string;
  row: Row;
  rowName: string;
  column: Column;
  cell: Cell | undefined;
  onChanged: () => Promise<void>;
  onClose: () => void;
}) {
  const { api, files } = useSession();
  const { cell, column, row } = props;
  const [viewing, setViewing] = useState<PageTarget | null>(null);
  const base = cell ? `/tables/${props.tableId}/cells/${cell.id}` : null;
  const overrideKey = JSON.stringify(cell?.humanOverride ?? null);
  const events = useLoad(
    () => (base ? api.call<CellEvent[]>('GET', `${base}/events`) : Promise.resolve([])),
    [base, overrideKey],
  );
  const facts = useLoad(
    () =>
      base && row.subjectType === 'bundle'
        ? api.call<CellFact[]>('GET', `${base}/facts`)
        : Promise.resolve([]),
    [base, row.subjectType, cell?.updatedAt],
  );
  const fileName = (id: string) => files.get(id)?.fileName ?? id;

  return (
    <aside className="panel" aria-label="cell details" data-testid="cell-panel">
      <header>
        <div>
          <h2>{column.name}</h2>
          <p className="muted">
            {props.rowName} · {column.prompt}
          </p>
        </div>
        <button type="button" className="link" onClick={props.onClose} aria-label="close panel">
          ×
        </button>
      </header>

      {!cell && <p className="muted">Not run yet.</p>}
      {cell && (
        <>
          <section>
            <h3>Answer</h3>
            <p className="status-line" data-testid="panel-status">
              {cell.status.replace('_', ' ')}
              {cell.blockReason && ` — ${blockLabel(cell.blockReason)}`}
              {cell.confidence !== null && ` · confidence ${cell.confidence.toFixed(2)}`}
              {cell.stale && ' · stale: the column or bundle changed since this answer'}
            </p>
            {cell.statusText && <p className="err">{cell.statusText}</p>}
            <div className="answer" data-testid="panel-value">
              <ValueView value={cell.value} column={column} api={api} large />
            </div>
            {cell.humanOverride && (
              <div className="override" data-testid="panel-override">
                <span className="mark edited">override</span>{' '}
                <ScalarView typed={cell.humanOverride} config={parseConfig(column.config)} />
              </div>
            )}
          </section>

          <OverrideEditor
            column={column}
            cell={cell}
            onSave={async (value) => {
              await api.call('PUT', `${base}/override`, { value });
              await props.onChanged();
            }}
            onClear={async () => {
              await api.call('DELETE', `${base}/override`);
              await props.onChanged();
            }}
          />

          <section>
            <h3>Citations</h3>
            {cell.citations.length === 0 && <p className="muted">None.</p>}
            <ol className="citations" data-testid="citations">
              {cell.citations.map((c: Citation, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: citations have no id.
                <li key={i}>
                  <button
                    type="button"
                    className="citation"
                    data-testid="citation"
                    onClick={() =>
                      setViewing({ fileId: c.fileId, page: c.page, box: c.box ?? null, quote: c.quote })
                    }
                  >
                    <span className="where">
                      {fileName(c.fileId)}, p. {c.page}
                    </span>
                    <span className="q">“{c.quote}”</span>
                  </button>
                </li>
              ))}
            </ol>
            {isRegions(cell.value) && cell.value.length > 0 && (
              <ul className="citations">
                {cell.value.map((r, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: regions have no id.
                  <li key={i}>
                    <button
                      type="button"
                      className="citation"
                      onClick={() =>
                        setViewing({ fileId: r.fileId, page: r.page, box: r.box, quote: r.caption })
                      }
                    >
                      <span className="where">
                        {fileName(r.fileId)}, p. {r.page}
                      </span>
                      <span className="q">{r.caption}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </section>

          {row.subjectType === 'bundle' && (
            <section>
              <h3>Per document</h3>
              {facts.loading && !facts.value && <Spinner />}
              <ErrorNote error={facts.error} />
              {facts.value && facts.value.length === 0 && <p className="muted">No facts.</p>}
              <ul className="facts" data-testid="facts">
                {(facts.value ?? []).map((f) => (
                  <FactLine
                    key={f.id}
                    fact={f}
                    column={column}
                    fileName={fileName(f.fileId)}
                    onOpen={setViewing}
                  />
                ))}
              </ul>
            </section>
          )}

          <section>
            <h3>History</h3>
            <ErrorNote error={events.error} />
            {events.value && events.value.length === 0 && <p className="muted">No changes by hand.</p>}
            <ol className="events" data-testid="events">
              {(events.value ?? []).map((ev) => (
                <EventLine key={ev.id} event={ev} column={column} />
              ))}
            </ol>
          </section>
        </>
      )}
      {viewing && <PageViewer target={viewing} onClose={() => setViewing(null)} />}
    </aside>
  );
}

function parse(s: string | null): unknown {
  if (s === null) return null;
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

function asTyped(v: unknown): Typed | null {
  return v && typeof v === 'object' && !Array.isArray(v) && 'type' in v ? (v as Typed) : null;
}

function EventLine(props: { event: CellEvent; column: Column }) {
  const { event } = props;
  const data = parse(event.data) as { value?: unknown; priorValue?: unknown } | null;
  const config = parseConfig(props.column.config);
  const value = asTyped(data?.value);
  const label =
    event.type === 'override_set'
      ? 'Override set'
      : event.type === 'override_cleared'
        ? 'Override cleared'
        : event.type;
  return (
    <li data-testid="event" data-type={event.type}>
      <strong>{label}</strong> {value && <ScalarView typed={value} config={config} />}
      <span className="muted">
        {' '}
        by {event.actorId} · {when(event.createdAt)}
      </span>
    </li>
  );
}

function FactLine(props: {
  fact: CellFact;
  column: Column;
  fileName: string;
  onOpen: (t: PageTarget) => void;
}) {
  const { fact } = props;
  const value = parse(fact.value);
  const citations =
    (parse(fact.citations) as { datasetId?: string; page: number; quote: string; box?: Box }[]) ?? [];
  const typed = asTyped(value);
  return (
    <li data-testid="fact">
      <div>
        <strong>{props.fileName}</strong>
        {fact.role && <span className="chip">{fact.role}</span>}
        {fact.effectiveAt !== null && (
          <span className="muted"> effective {new Date(fact.effectiveAt).toLocaleDateString()}</span>
        )}
        <span className="muted"> · {fact.status}</span>
      </div>
      <div>
        {typed ? (
          <ScalarView typed={typed} config={parseConfig(props.column.config)} />
        ) : value === null ? (
          '—'
        ) : null}
      </div>
      {Array.isArray(citations) &&
        citations.map((c, i) => (
          <button
            // biome-ignore lint/suspicious/noArrayIndexKey: citations have no id.
            key={i}
            type="button"
            className="citation small"
            onClick={() =>
              props.onOpen({
                fileId: c.datasetId ?? fact.fileId,
                page: c.page,
                box: c.box ?? null,
                quote: c.quote,
              })
            }
          >
            p. {c.page}: “{c.quote}”
          </button>
        ))}
    </li>
  );
}

/** A typed editor: the override must be `{type, value}` of the column's type (text for image columns). */
function OverrideEditor(props: {
  column: Column;
  cell: Cell;
  onSave: (value: Typed) => Promise<void>;
  onClear: () => Promise<void>;
}) {
  const { canWrite } = useSession();
  const { column, cell } = props;
  const type =
    column.outputType === 'image' || column.outputType === 'image_list' ? 'text_quote' : column.outputType;
  const config = parseConfig(column.config);
  const current = cell.humanOverride ?? (isRegions(cell.value) ? null : cell.value);
  const [draft, setDraft] = useState('');
  const [notStated, setNotStated] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const v = current?.value ?? null;
    setNotStated(false);
    if (v === null) setDraft('');
    else if (Array.isArray(v)) setDraft(v.join('\n'));
    else setDraft(String(v));
  }, [current?.value]);

  if (!canWrite) return null;

  const build = (): Scalar => {
    if (notStated) return null;
    switch (type) {
      case 'number': {
        const n = Number(draft.replace(/,/g, ''));
        if (draft.trim() === '' || !Number.isFinite(n)) throw new Error('Type a number, e.g. 12500.50.');
        return n;
      }
      case 'boolean':
        if (draft !== 'true' && draft !== 'false') throw new Error('Choose yes or no.');
        return draft === 'true';
      case 'date':
        if (!/^\d{4}-\d{2}-\d{2}$/.test(draft)) throw new Error('Pick a date.');
        return draft;
      case 'list_scalar':
        return draft
          .split('\n')
          .map((s) => s.trim())
          .filter(Boolean);
      default:
        if (!draft.trim()) throw new Error('Type a value, or tick “not stated”.');
        return draft;
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    let value: Scalar;
    try {
      value = build();
    } catch (err) {
      setError(err);
      return;
    }
    setBusy(true);
    try {
      await props.onSave({ type, value });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  let input: ReactNode;
  switch (type) {
    case 'number':
      input = (
        <input
          type="text"
          inputMode="decimal"
          aria-label="override value"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
        />
      );
      break;
    case 'date':
      input = (
        <input
          type="date"
          aria-label="override value"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
        />
      );
      break;
    case 'boolean':
      input = (
        <select aria-label="override value" value={draft} onChange={(e) => setDraft(e.target.value)}>
          <option value="">choose…</option>
          <option value="true">Yes</option>
          <option value="false">No</option>
        </select>
      );
      break;
    case 'categorical':
      input = (
        <select aria-label="override value" value={draft} onChange={(e) => setDraft(e.target.value)}>
          <option value="">choose…</option>
          {(config.categories ?? []).map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      );
      break;
    case 'list_scalar':
      input = (
        <textarea
          aria-label="override value"
          rows={4}
          placeholder="one item per line"
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
        />
      );
      break;
    default:
      input = (
        <textarea
          aria-label="override value"
          rows={2}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
        />
      );
  }

  return (
    <section>
      <h3>Correct by hand</h3>
      {type !== column.outputType && (
        <p className="muted">An image column is overridden with text, which replaces the picture.</p>
      )}
      <form className="stack" onSubmit={submit} data-testid="override-form">
        {input}
        <label className="toggle">
          <input type="checkbox" checked={notStated} onChange={(e) => setNotStated(e.target.checked)} /> not
          stated in the document
        </label>
        <ErrorNote error={error} />
        <div className="buttons">
          {cell.humanOverride && (
            <button
              type="button"
              className="secondary"
              disabled={busy}
              onClick={async () => {
                setBusy(true);
                try {
                  await props.onClear();
                } catch (err) {
                  setError(err);
                } finally {
                  setBusy(false);
                }
              }}
            >
              Clear override
            </button>
          )}
          <button type="submit" disabled={busy} data-testid="save-override">
            Save override
          </button>
        </div>
      </form>
    </section>
  );
}
