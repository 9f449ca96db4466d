import { type FormEvent, StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { Api, type Me, onUnauthorized } from './api.ts';
import { BundlePage, BundlesPage } from './pages/Bundles.tsx';
import { FilesPage } from './pages/Files.tsx';
import { SearchPage } from './pages/Search.tsx';
import { TableGridPage } from './pages/TableGrid.tsx';
import { TablesPage } from './pages/Tables.tsx';
import { Link, navigate, useRoute } from './router.tsx';
import { SessionProvider, storedKey, storeKey, useSession } from './session.tsx';
import { ErrorNote, Spinner } from './ui.tsx';
import './styles.css';

function App() {
  const [key, setKey] = useState<string | null>(storedKey);
  const [me, setMe] = useState<Me | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    if (!key || me) return;
    // The key does not say which workspace it reaches: GET /v2/me does.
    Api.me(key).then(setMe, (e: unknown) => {
      storeKey(null);
      setKey(null);
      setError(e);
    });
  }, [key, me]);

  const signOut = () => {
    storeKey(null);
    setKey(null);
    setMe(null);
  };
  // A key revoked or expired while the app is open: back to the key form, saying why.
  useEffect(() => {
    onUnauthorized((e) => {
      storeKey(null);
      setKey(null);
      setMe(null);
      setError(e);
    });
    return () => onUnauthorized(null);
  }, []);

  if (!key) {
    return (
      <KeyForm
        error={error}
        onKey={(k) => {
          setError(null);
          storeKey(k);
          setKey(k);
        }}
      />
    );
  }
  if (!me) return <Spinner label="checking the key" />;
  return (
    <SessionProvider apiKey={key} me={me} onSignOut={signOut}>
      <Shell />
    </SessionProvider>
  );
}

function KeyForm(props: { error: unknown; onKey: (key: string) => void }) {
  const [value, setValue] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (value.trim()) props.onKey(value.trim());
  };
  return (
    <main className="login">
      <h1>Folio</h1>
      <form className="stack" onSubmit={submit}>
        <label>
          API key
          <input
            type="password"
            name="apiKey"
            autoComplete="off"
            placeholder="folio_…"
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
        </label>
        <button type="submit" disabled={!value.trim()}>
          Open workspace
        </button>
        <ErrorNote error={props.error} />
        <p className="muted">
          The key is kept in this tab's session storage only, and is sent to this service alone, in a request
          header. Closing the tab forgets it.
        </p>
      </form>
    </main>
  );
}

function Shell() {
  const { workspace, me, signOut } = useSession();
  const route = useRoute();
  const [section, id] = route;
  useEffect(() => {
    if (!section) navigate('/tables');
  }, [section]);

  let page = null;
  if (section === 'files') page = <FilesPage />;
  else if (section === 'tables' && id) page = <TableGridPage key={id} tableId={id} />;
  else if (section === 'tables') page = <TablesPage />;
  else if (section === 'bundles' && id) page = <BundlePage key={id} bundleId={id} />;
  else if (section === 'bundles') page = <BundlesPage />;
  else if (section === 'search') page = <SearchPage />;
  else if (section) page = <p>This page does not exist.</p>;

  const on = (s: string) => (section === s ? 'on' : '');
  return (
    <div className="shell">
      <nav className="top">
        <span className="brand">Folio</span>
        <Link to="/files" className={on('files')}>
          Files
        </Link>
        <Link to="/tables" className={on('tables')}>
          Tables
        </Link>
        <Link to="/bundles" className={on('bundles')}>
          Bundles
        </Link>
        <Link to="/search" className={on('search')}>
          Search
        </Link>
        <span className="spacer" />
        {workspace && (
          <span className="credits" data-testid="credits">
            <span title="credits left">
              <strong data-testid="balance">{workspace.balance.toLocaleString()}</strong> credits
            </span>
            <span className="muted" title="spent this calendar month (UTC)">
              {' '}
              · {workspace.monthSpend.toLocaleString()} spent this month
              {workspace.spendCap !== null && ` of ${workspace.spendCap.toLocaleString()} cap`}
            </span>
          </span>
        )}
        <span className="muted ws" title={workspace?.id}>
          {workspace?.name ?? me.workspaceId}
          {me.level === 'read' && ' (read only)'}
        </span>
        <button type="button" className="link" onClick={signOut}>
          Sign out
        </button>
      </nav>
      <main className="content">{page}</main>
    </div>
  );
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
