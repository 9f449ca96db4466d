import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from 'react';
import { Api, type FileRec, type Me, type Workspace } from './api.ts';

/** Session storage only: the key is forgotten with the tab, and never written to a URL. */
const KEY_SLOT = 'folio.apiKey';

export interface Session {
  api: Api;
  me: Me;
  canWrite: boolean;
  workspace: Workspace | null;
  refreshWorkspace: () => void;
  /** Files by id, for names in the grid, bundles and search results. */
  files: Map<string, FileRec>;
  refreshFiles: () => Promise<void>;
  signOut: () => void;
}

const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside a session');
  return s;
}

export function storedKey(): string | null {
  try {
    return sessionStorage.getItem(KEY_SLOT);
  } catch {
    return null;
  }
}
export function storeKey(key: string | null): void {
  try {
    if (key === null) sessionStorage.removeItem(KEY_SLOT);
    else sessionStorage.setItem(KEY_SLOT, key);
  } catch {
    // Storage refused (private mode): the key lives only in memory for this page.
  }
}

export function SessionProvider(props: {
  apiKey: string;
  me: Me;
  onSignOut: () => void;
  children: ReactNode;
}) {
  const { apiKey, me, onSignOut } = props;
  const [api] = useState(() => new Api(apiKey, me.workspaceId));
  const [workspace, setWorkspace] = useState<Workspace | null>(null);
  const [files, setFiles] = useState<Map<string, FileRec>>(new Map());

  const refreshWorkspace = useCallback(() => {
    api.workspace().then(setWorkspace, () => {});
  }, [api]);
  const refreshFiles = useCallback(async () => {
    const list = await api.allFiles();
    setFiles(new Map(list.map((f) => [f.id, f])));
  }, [api]);

  useEffect(() => {
    refreshWorkspace();
    refreshFiles().catch(() => {});
    const t = setInterval(refreshWorkspace, 30_000);
    return () => clearInterval(t);
  }, [refreshWorkspace, refreshFiles]);

  const value: Session = {
    api,
    me,
    canWrite: me.level === 'read_write',
    workspace,
    refreshWorkspace,
    files,
    refreshFiles,
    signOut: onSignOut,
  };
  return <SessionContext.Provider value={value}>{props.children}</SessionContext.Provider>;
}
