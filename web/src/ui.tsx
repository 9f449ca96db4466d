import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { ApiError } from './api.ts';

export function Spinner(props: { label?: string }) {
  return <span className="spinner" role="status" aria-label={props.label ?? 'working'} />;
}

export function message(e: unknown): string {
  if (e instanceof ApiError) return e.message;
  if (e instanceof Error) return e.message;
  return String(e);
}

export function ErrorNote(props: { error: unknown; onClose?: () => void }) {
  if (props.error === null || props.error === undefined) return null;
  return (
    <div className="error" role="alert">
      <span>{message(props.error)}</span>
      {props.onClose && (
        <button type="button" className="link" onClick={props.onClose} aria-label="dismiss">
          ×
        </button>
      )}
    </div>
  );
}

export function Modal(props: { title: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const { onClose } = props;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  // In document.body, above every stacking context of the page (sticky panels, grid headers).
  return createPortal(
    <div className="backdrop">
      <div
        className={`modal${props.wide ? ' wide' : ''}`}
        role="dialog"
        aria-modal="true"
        aria-label={props.title}
      >
        <header>
          <h2>{props.title}</h2>
          <button type="button" className="link" onClick={props.onClose} aria-label="close">
            ×
          </button>
        </header>
        <div className="modal-body">{props.children}</div>
      </div>
    </div>,
    document.body,
  );
}

/** Loads once (and again on `reload`), keeping the last good value while reloading. */
export function useLoad<T>(
  load: () => Promise<T>,
  deps: unknown[],
): { value: T | undefined; error: unknown; loading: boolean; reload: () => void } {
  const [value, setValue] = useState<T>();
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's deps decide when to load again.
  useEffect(() => {
    let live = true;
    setLoading(true);
    loadRef.current().then(
      (v) => {
        if (!live) return;
        setValue(v);
        setError(null);
        setLoading(false);
      },
      (e: unknown) => {
        if (!live) return;
        setError(e);
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { value, error, loading, reload };
}

/** Calls `fn` every `ms` while `active`; the latest `fn` is always the one called. */
export function useInterval(fn: () => void, ms: number, active: boolean): void {
  const ref = useRef(fn);
  ref.current = fn;
  useEffect(() => {
    if (!active) return;
    const t = setInterval(() => ref.current(), ms);
    return () => clearInterval(t);
  }, [ms, active]);
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

export function when(ms: number | null): string {
  if (ms === null) return '';
  return new Date(ms).toLocaleString();
}

const DAY = 86_400_000;
/** "in 3 days", "2 months ago": for `dateDisplay: relative` (the stored value stays ISO). */
export function relativeDate(iso: string, now = Date.now()): string {
  const t = Date.parse(`${iso}T00:00:00Z`);
  if (Number.isNaN(t)) return iso;
  const today = Date.UTC(
    new Date(now).getUTCFullYear(),
    new Date(now).getUTCMonth(),
    new Date(now).getUTCDate(),
  );
  const days = Math.round((t - today) / DAY);
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  const abs = Math.abs(days);
  if (abs < 31) return rtf.format(days, 'day');
  if (abs < 365) return rtf.format(Math.round(days / 30.44), 'month');
  return rtf.format(Math.round(days / 365.25), 'year');
}

/** The inline rename form of a table or bundle heading: Save sends the trimmed name, Cancel drops it. */
export function RenameForm(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onSave: (name: string) => void;
  onCancel: () => void;
}) {
  return (
    <form
      className="inline"
      onSubmit={(e) => {
        e.preventDefault();
        props.onSave(props.value.trim());
      }}
    >
      <input
        aria-label={props.label}
        value={props.value}
        maxLength={120}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <button type="submit" disabled={!props.value.trim()}>
        Save
      </button>
      <button type="button" className="secondary" onClick={props.onCancel}>
        Cancel
      </button>
    </form>
  );
}
