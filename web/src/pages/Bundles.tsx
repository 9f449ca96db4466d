import { type FormEvent, useState } from 'react';
import type { Bundle, Member } from '../api.ts';
import { Link, navigate } from '../router.tsx';
import { useSession } from '../session.tsx';
import { ErrorNote, RenameForm, Spinner, useLoad, when } from '../ui.tsx';

export function BundlesPage() {
  const { api, canWrite, files } = useSession();
  const bundles = useLoad(() => api.call<Bundle[]>('GET', '/bundles'), [api]);
  const [name, setName] = useState('');
  const [picked, setPicked] = useState<string[]>([]);
  const [error, setError] = useState<unknown>(null);

  const create = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const b = await api.call<Bundle>('POST', '/bundles', { name: name.trim(), fileIds: picked });
      navigate(`/bundles/${b.id}`);
    } catch (err) {
      setError(err);
    }
  };

  return (
    <section>
      <h1>Bundles</h1>
      <p className="muted">
        A bundle groups documents (a contract and its amendments) so a table row reads them together.
      </p>
      {canWrite && (
        <form className="stack narrow" onSubmit={create}>
          <input
            aria-label="new bundle name"
            placeholder="New bundle name"
            value={name}
            maxLength={120}
            onChange={(e) => setName(e.target.value)}
          />
          <details>
            <summary>Start with documents ({picked.length} chosen; the first becomes primary)</summary>
            <ul className="picklist">
              {[...files.values()].map((f) => (
                <li key={f.id}>
                  <label>
                    <input
                      type="checkbox"
                      checked={picked.includes(f.id)}
                      disabled={!picked.includes(f.id) && picked.length >= 15}
                      onChange={(e) =>
                        setPicked(e.target.checked ? [...picked, f.id] : picked.filter((x) => x !== f.id))
                      }
                    />{' '}
                    {f.fileName}
                  </label>
                </li>
              ))}
            </ul>
          </details>
          <button type="submit" disabled={!name.trim()}>
            Create bundle
          </button>
        </form>
      )}
      <ErrorNote error={error ?? bundles.error} onClose={() => setError(null)} />
      {bundles.loading && !bundles.value && <Spinner />}
      <ul className="cards">
        {(bundles.value ?? [])
          .filter((b) => b.archivedAt === null)
          .map((b) => (
            <li key={b.id}>
              <Link to={`/bundles/${b.id}`}>{b.name}</Link>
              <span className="muted">documents version {b.documentsVersion}</span>
            </li>
          ))}
      </ul>
    </section>
  );
}

export function BundlePage(props: { bundleId: string }) {
  const { api, canWrite, files } = useSession();
  const base = `/bundles/${props.bundleId}`;
  const data = useLoad(() => api.call<{ bundle: Bundle; files: Member[] }>('GET', base), [api, base]);
  const [error, setError] = useState<unknown>(null);
  const [adding, setAdding] = useState<string[]>([]);
  const [role, setRole] = useState('');
  const [rename, setRename] = useState<string | null>(null);

  const act = async (fn: () => Promise<unknown>) => {
    setError(null);
    try {
      await fn();
      data.reload();
    } catch (e) {
      setError(e);
    }
  };

  if (!data.value) return data.error ? <ErrorNote error={data.error} /> : <Spinner />;
  const { bundle } = data.value;
  const members = [...data.value.files].sort((a, b) => a.sortOrder - b.sortOrder);
  const inBundle = new Set(members.map((m) => m.fileId));
  return (
    <section>
      <p>
        <Link to="/bundles">← Bundles</Link>
      </p>
      {rename === null ? (
        <h1>
          {bundle.name} {bundle.archivedAt && <span className="badge">archived</span>}
        </h1>
      ) : (
        <RenameForm
          label="bundle name"
          value={rename}
          onChange={setRename}
          onSave={(name) =>
            act(async () => {
              await api.call('PATCH', base, { name });
              setRename(null);
            })
          }
          onCancel={() => setRename(null)}
        />
      )}
      <p className="muted">
        Documents version {bundle.documentsVersion}: adding or removing a document makes the cells of rows
        reading this bundle stale.
      </p>
      {canWrite && rename === null && (
        <div className="actions">
          <button type="button" className="secondary" onClick={() => setRename(bundle.name)}>
            Rename
          </button>
          {!bundle.archivedAt && (
            <button
              type="button"
              className="danger secondary"
              onClick={() => {
                if (window.confirm(`Archive bundle ${bundle.name}?`))
                  act(async () => {
                    await api.call('DELETE', base);
                    navigate('/bundles');
                  });
              }}
            >
              Archive
            </button>
          )}
        </div>
      )}
      <ErrorNote error={error} onClose={() => setError(null)} />
      <table className="list" data-testid="members">
        <thead>
          <tr>
            <th>Document</th>
            <th>Primary</th>
            <th>Role</th>
            <th>Effective</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {members.map((m) => (
            <tr key={m.fileId}>
              <td>{files.get(m.fileId)?.fileName ?? m.fileId}</td>
              <td>
                <input
                  type="radio"
                  name="primary"
                  aria-label="primary document"
                  checked={m.isPrimary}
                  disabled={!canWrite}
                  onChange={() =>
                    act(() => api.call('PATCH', `${base}/files/${m.fileId}`, { isPrimary: true }))
                  }
                />
              </td>
              <td>
                <RoleEditor
                  value={m.role}
                  disabled={!canWrite}
                  onSave={(r) => act(() => api.call('PATCH', `${base}/files/${m.fileId}`, { role: r }))}
                />
              </td>
              <td>
                <input
                  type="date"
                  aria-label="effective date"
                  disabled={!canWrite}
                  defaultValue={
                    m.effectiveAt !== null ? new Date(m.effectiveAt).toISOString().slice(0, 10) : ''
                  }
                  onBlur={(e) => {
                    const v = e.target.value ? Date.parse(`${e.target.value}T00:00:00Z`) : null;
                    if (v !== m.effectiveAt)
                      act(() => api.call('PATCH', `${base}/files/${m.fileId}`, { effectiveAt: v }));
                  }}
                />
              </td>
              <td>
                {canWrite && (
                  <button
                    type="button"
                    className="danger small"
                    onClick={() => act(() => api.call('DELETE', `${base}/files/${m.fileId}`))}
                  >
                    Remove
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {canWrite && (
        <div className="stack narrow">
          <h3>Add documents</h3>
          <ul className="picklist">
            {[...files.values()]
              .filter((f) => !inBundle.has(f.id))
              .map((f) => (
                <li key={f.id}>
                  <label>
                    <input
                      type="checkbox"
                      checked={adding.includes(f.id)}
                      onChange={(e) =>
                        setAdding(e.target.checked ? [...adding, f.id] : adding.filter((x) => x !== f.id))
                      }
                    />{' '}
                    {f.fileName} <span className="muted">{when(f.createdAt)}</span>
                  </label>
                </li>
              ))}
          </ul>
          <input
            aria-label="role of the added documents"
            placeholder="Role (optional), e.g. amendment"
            value={role}
            maxLength={120}
            onChange={(e) => setRole(e.target.value)}
          />
          <button
            type="button"
            disabled={adding.length === 0}
            onClick={() =>
              act(async () => {
                await api.call('POST', `${base}/files`, { fileIds: adding, role: role.trim() || null });
                setAdding([]);
                setRole('');
              })
            }
          >
            Add {adding.length || ''} document{adding.length === 1 ? '' : 's'}
          </button>
        </div>
      )}
    </section>
  );
}

function RoleEditor(props: {
  value: string | null;
  disabled: boolean;
  onSave: (role: string | null) => void;
}) {
  const [v, setV] = useState(props.value ?? '');
  return (
    <input
      aria-label="role"
      value={v}
      maxLength={120}
      disabled={props.disabled}
      placeholder="—"
      onChange={(e) => setV(e.target.value)}
      onBlur={() => {
        const next = v.trim() || null;
        if (next !== props.value) props.onSave(next);
      }}
    />
  );
}
