import { useEffect, useRef, useState } from 'react';
import { downloadTableExport, EXPORT_FORMATS, type ExportFormat } from '../export.ts';
import { useSession } from '../session.tsx';
import { Spinner } from '../ui.tsx';

/** The table page's Export menu (issue 16): CSV, XLSX or JSON, optionally with each column's confidence, citations and status. */
export function ExportMenu(props: { tableId: string; onError: (e: unknown) => void }) {
  const { api } = useSession();
  const [open, setOpen] = useState(false);
  const [extras, setExtras] = useState(false);
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const box = useRef<HTMLDivElement>(null);

  // Closes on Escape and on a click outside the menu.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    const onClick = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('mousedown', onClick);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('mousedown', onClick);
    };
  }, [open]);

  const download = async (format: ExportFormat) => {
    setBusy(format);
    try {
      await downloadTableExport(api, props.tableId, format, {
        include: extras ? ['confidence', 'citations', 'status'] : [],
      });
      setOpen(false);
    } catch (e) {
      props.onError(e);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div ref={box} style={{ position: 'relative' }}>
      <button
        type="button"
        className="secondary"
        aria-haspopup="menu"
        aria-expanded={open}
        data-testid="export"
        onClick={() => setOpen(!open)}
      >
        Export ▾
      </button>
      {open && (
        <div
          role="menu"
          aria-label="export table"
          style={{
            position: 'absolute',
            top: '100%',
            left: 0,
            marginTop: 4,
            zIndex: 30,
            minWidth: '17rem',
            display: 'flex',
            flexDirection: 'column',
            gap: '0.35rem',
            padding: '0.5rem 0.6rem',
            background: '#fff',
            border: '1px solid var(--line)',
            borderRadius: 6,
            boxShadow: '0 4px 14px rgba(15, 23, 42, 0.12)',
          }}
        >
          {EXPORT_FORMATS.map(({ format, label, hint }) => (
            <button
              key={format}
              type="button"
              role="menuitem"
              className="link"
              style={{ textAlign: 'left' }}
              title={hint}
              disabled={busy !== null}
              onClick={() => download(format)}
            >
              {label} {busy === format && <Spinner label={`exporting ${label}`} />}
              <span className="muted"> · {hint}</span>
            </button>
          ))}
          <label className="toggle" style={{ borderTop: '1px solid var(--line)', paddingTop: '0.35rem' }}>
            <input type="checkbox" checked={extras} onChange={(e) => setExtras(e.target.checked)} /> with
            confidence, citations and status
          </label>
        </div>
      )}
    </div>
  );
}
