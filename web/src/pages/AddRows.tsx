import { useState } from 'react';
import type { Bundle, Row } from '../api.ts';
import { useSession } from '../session.tsx';
import { ErrorNote, Modal } from '../ui.tsx';

/** Rows from files or bundles; a subject already in the table is not offered again. */
export function AddRowsDialog(props: {
  tableId: string;
  rows: Row[];
  bundles: Bundle[];
  onClose: () => void;
  onAdded: () => void;
}) {
  const { api, files } = useSession();
  const [tab, setTab] = useState<'file' | 'bundle'>('file');
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const present = new Set(props.rows.filter((r) => r.archivedAt === null).map((r) => r.subjectId));
  const choices =
    tab === 'file'
      ? [...files.values()]
          .filter((f) => !present.has(f.id))
          .sort((a, b) => b.createdAt - a.createdAt)
          .map((f) => ({ id: f.id, name: f.fileName, note: `${f.itemCount} page(s)` }))
      : props.bundles
          .filter((b) => b.archivedAt === null && !present.has(b.id))
          .map((b) => ({ id: b.id, name: b.name, note: `version ${b.documentsVersion}` }));

  const add = async () => {
    setBusy(true);
    setError(null);
    let sortOrder = props.rows.reduce((m, r) => Math.max(m, r.sortOrder), -1) + 1;
    try {
      for (const id of picked) {
        await api.call('POST', `/tables/${props.tableId}/rows`, {
          subjectType: id.startsWith('bndl_') ? 'bundle' : 'file',
          subjectId: id,
          sortOrder: sortOrder++,
        });
      }
      props.onAdded();
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };

  return (
    <Modal title="Add rows" onClose={props.onClose}>
      <div className="tabs" role="tablist">
        <button
          type="button"
          role="tab"
          aria-selected={tab === 'file'}
          className={tab === 'file' ? 'on' : ''}
          onClick={() => setTab('file')}
        >
          Files
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={tab === 'bundle'}
          className={tab === 'bundle' ? 'on' : ''}
          onClick={() => setTab('bundle')}
        >
          Bundles
        </button>
      </div>
      {choices.length === 0 && <p className="muted">Nothing left to add.</p>}
      <ul className="picklist" data-testid="row-choices">
        {choices.map((c) => (
          <li key={c.id}>
            <label>
              <input
                type="checkbox"
                checked={picked.has(c.id)}
                onChange={(e) => {
                  const n = new Set(picked);
                  if (e.target.checked) n.add(c.id);
                  else n.delete(c.id);
                  setPicked(n);
                }}
              />{' '}
              {c.name} <span className="muted">{c.note}</span>
            </label>
          </li>
        ))}
      </ul>
      <ErrorNote error={error} />
      <div className="buttons">
        <button type="button" className="secondary" onClick={props.onClose}>
          Cancel
        </button>
        <button type="button" disabled={busy || picked.size === 0} onClick={add} data-testid="add-rows">
          Add {picked.size || ''} row{picked.size === 1 ? '' : 's'}
        </button>
      </div>
    </Modal>
  );
}
