import { type FormEvent, useState } from 'react';
import type { Table } from '../api.ts';
import { Link, navigate } from '../router.tsx';
import { useSession } from '../session.tsx';
import { ErrorNote, Spinner, useLoad, when } from '../ui.tsx';

export function TablesPage() {
  const { api, canWrite } = useSession();
  const tables = useLoad(() => api.call<Table[]>('GET', '/tables'), [api]);
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [showArchived, setShowArchived] = useState(false);
  const [busy, setBusy] = useState(false);

  const create = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return;
    setBusy(true);
    try {
      const t = await api.call<Table>('POST', '/tables', { name: name.trim() });
      setName('');
      navigate(`/tables/${t.id}`);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const list = (tables.value ?? [])
    .filter((t) => showArchived || t.archivedAt === null)
    .sort((a, b) => b.createdAt - a.createdAt);
  return (
    <section>
      <h1>Tables</h1>
      {canWrite && (
        <form className="inline" onSubmit={create}>
          <input
            aria-label="new table name"
            placeholder="New table name"
            value={name}
            maxLength={120}
            onChange={(e) => setName(e.target.value)}
          />
          <button type="submit" disabled={busy || !name.trim()}>
            Create table
          </button>
        </form>
      )}
      <ErrorNote error={error ?? tables.error} onClose={() => setError(null)} />
      <label className="toggle">
        <input type="checkbox" checked={showArchived} onChange={(e) => setShowArchived(e.target.checked)} />{' '}
        Show archived
      </label>
      {tables.loading && !tables.value && <Spinner label="loading tables" />}
      {tables.value && list.length === 0 && <p className="muted">No tables yet.</p>}
      <ul className="cards" data-testid="tables">
        {list.map((t) => (
          <li key={t.id} className={t.archivedAt ? 'archived' : ''}>
            <Link to={`/tables/${t.id}`}>{t.name}</Link>
            <span className="muted">
              {t.archivedAt ? `archived ${when(t.archivedAt)}` : `created ${when(t.createdAt)}`}
              {t.standing && ' · standing (auto-runs new documents)'}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
