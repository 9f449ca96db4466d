import { type MouseEvent, type ReactNode, useEffect, useState } from 'react';

/** Client routes live under /app; the server answers every one of them with index.html. */
export const BASE = '/app';

function current(): string[] {
  const p = window.location.pathname.startsWith(BASE) ? window.location.pathname.slice(BASE.length) : '/';
  return p.split('/').filter(Boolean).map(decodeURIComponent);
}

export function navigate(to: string): void {
  const url = `${BASE}${to.startsWith('/') ? to : `/${to}`}`;
  if (url !== window.location.pathname) window.history.pushState(null, '', url);
  window.dispatchEvent(new Event('folio:navigate'));
}

/** The current client route as path segments, e.g. ['tables', 'rev_…']. */
export function useRoute(): string[] {
  const [parts, setParts] = useState(current);
  useEffect(() => {
    const update = () => setParts(current());
    window.addEventListener('popstate', update);
    window.addEventListener('folio:navigate', update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener('folio:navigate', update);
    };
  }, []);
  return parts;
}

export function Link(props: { to: string; className?: string; children: ReactNode; title?: string }) {
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(props.to);
  };
  return (
    <a href={`${BASE}${props.to}`} className={props.className} onClick={onClick} title={props.title}>
      {props.children}
    </a>
  );
}
