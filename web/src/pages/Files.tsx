import { type DragEvent, useCallback, useRef, useState } from 'react';
import { type FileItem, type FileRec, type Job, sameOrigin } from '../api.ts';
import { type PageTarget, PageViewer } from '../PageViewer.tsx';
import { useSession } from '../session.tsx';
import { bytes, ErrorNote, message, Spinner, useInterval, useLoad, when } from '../ui.tsx';

interface Upload {
  key: number;
  name: string;
  size: number;
  progress: number;
  phase: 'uploading' | 'ingesting' | 'done' | 'failed';
  job?: Job;
  error?: string;
}

let uploadKeys = 0;

export function FilesPage() {
  const { api, canWrite, files, refreshFiles, refreshWorkspace } = useSession();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [over, setOver] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [viewing, setViewing] = useState<PageTarget | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const list = useLoad(() => refreshFiles(), []);

  const patch = useCallback((key: number, p: Partial<Upload>) => {
    setUploads((us) => us.map((u) => (u.key === key ? { ...u, ...p } : u)));
  }, []);

  const start = (chosen: FileList | File[]) => {
    for (const file of Array.from(chosen)) {
      const key = ++uploadKeys;
      setUploads((us) => [{ key, name: file.name, size: file.size, progress: 0, phase: 'uploading' }, ...us]);
      const { done } = api.upload(file, (f) => patch(key, { progress: f }));
      done.then(
        (job) => {
          patch(key, { phase: 'ingesting', job });
          refreshFiles().catch(() => {});
        },
        (e: unknown) => patch(key, { phase: 'failed', error: message(e) }),
      );
    }
  };

  // Ingest status: poll each job until it is finished (decisions.md D7).
  const ingesting = uploads.filter((u) => u.phase === 'ingesting' && u.job);
  useInterval(
    () => {
      for (const u of ingesting) {
        api.call<Job>('GET', `/jobs/${u.job!.id}`).then(
          (job) => {
            if (job.status === 'SUCCESS' || job.status === 'ERROR') {
              patch(u.key, {
                job,
                phase: job.status === 'SUCCESS' ? 'done' : 'failed',
                error: job.statusText ?? undefined,
              });
              refreshFiles().catch(() => {});
              refreshWorkspace();
            } else {
              patch(u.key, { job });
            }
          },
          (e: unknown) => patch(u.key, { phase: 'failed', error: message(e) }),
        );
      }
    },
    1000,
    ingesting.length > 0,
  );

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (!canWrite) return;
    if (e.dataTransfer.files.length > 0) start(e.dataTransfer.files);
  };

  const remove = async (f: FileRec) => {
    if (!window.confirm(`Delete ${f.fileName}? Its pages and share links stop working at once.`)) return;
    try {
      await api.call('DELETE', `/files/${f.id}`);
      await refreshFiles();
    } catch (e) {
      setError(e);
    }
  };

  const sorted = [...files.values()].sort((a, b) => b.createdAt - a.createdAt);
  return (
    <section>
      <h1>Files</h1>
      {canWrite ? (
        <section
          className={`dropzone${over ? ' over' : ''}`}
          aria-label="upload files"
          data-testid="dropzone"
          onDragOver={(e) => {
            e.preventDefault();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={onDrop}
        >
          <p>Drop documents here (PDF, Word, PowerPoint, Excel, JPEG, PNG, WebP), or</p>
          <button type="button" onClick={() => input.current?.click()}>
            Choose files…
          </button>
          <input
            ref={input}
            type="file"
            multiple
            hidden
            data-testid="file-input"
            accept=".pdf,.doc,.docx,.pptx,.xlsx,.jpg,.jpeg,.png,.webp"
            onChange={(e) => {
              if (e.target.files) start(e.target.files);
              e.target.value = '';
            }}
          />
          <p className="muted">Reading a document costs 1 credit per page.</p>
        </section>
      ) : (
        <p className="muted">This key can only read: uploading needs a Read &amp; write key.</p>
      )}

      {uploads.length > 0 && (
        <ul className="uploads" data-testid="uploads">
          {uploads.map((u) => (
            <li key={u.key} data-testid="upload" data-phase={u.phase}>
              <span className="name">{u.name}</span>
              <progress max={1} value={u.progress} aria-label={`upload of ${u.name}`} />
              <span className="phase">
                {u.phase === 'uploading' && `uploading ${Math.round(u.progress * 100)}%`}
                {u.phase === 'ingesting' && (
                  <>
                    <Spinner /> reading pages ({u.job?.status.replace('_', ' ').toLowerCase()})
                  </>
                )}
                {u.phase === 'done' && 'ready'}
                {u.phase === 'failed' && <span className="bad">failed: {u.error}</span>}
              </span>
            </li>
          ))}
        </ul>
      )}

      <ErrorNote error={error ?? list.error} onClose={() => setError(null)} />
      {list.loading && files.size === 0 && <Spinner label="loading files" />}
      {!list.loading && files.size === 0 && <p className="muted">No files yet.</p>}
      {sorted.length > 0 && (
        <table className="list" data-testid="files">
          <thead>
            <tr>
              <th>Name</th>
              <th>Pages</th>
              <th>Size</th>
              <th>Uploaded</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {sorted.map((f) => (
              <FileLine
                key={f.id}
                file={f}
                open={open === f.id}
                onToggle={() => setOpen(open === f.id ? null : f.id)}
                onDelete={canWrite ? () => remove(f) : undefined}
                onView={(page) => setViewing({ fileId: f.id, page })}
              />
            ))}
          </tbody>
        </table>
      )}
      {viewing && <PageViewer target={viewing} onClose={() => setViewing(null)} />}
    </section>
  );
}

function FileLine(props: {
  file: FileRec;
  open: boolean;
  onToggle: () => void;
  onDelete?: () => void;
  onView: (page: number) => void;
}) {
  const { file } = props;
  return (
    <>
      <tr data-testid="file-row" data-file-id={file.id}>
        <td>
          <button type="button" className="link" onClick={props.onToggle} aria-expanded={props.open}>
            {props.open ? '▾' : '▸'} {file.fileName}
          </button>
        </td>
        <td>{file.itemCount}</td>
        <td>{bytes(file.fileSize)}</td>
        <td>{when(file.createdAt)}</td>
        <td className="actions">
          {props.onDelete && (
            <button type="button" className="danger small" onClick={props.onDelete}>
              Delete
            </button>
          )}
        </td>
      </tr>
      {props.open && (
        <tr>
          <td colSpan={5}>
            <Thumbnails fileId={file.id} onView={props.onView} />
          </td>
        </tr>
      )}
    </>
  );
}

/** The small retrieval image of each page, through the share link each item carries. */
function Thumbnails(props: { fileId: string; onView: (page: number) => void }) {
  const { api } = useSession();
  const items = useLoad(
    () =>
      api.call<FileItem[]>(
        'GET',
        `/files/${props.fileId}/items?row=embedding_image&sort=col&limit=100&expiresInSeconds=3600`,
      ),
    [props.fileId],
  );
  if (items.error) return <ErrorNote error={items.error} />;
  if (!items.value) return <Spinner label="loading pages" />;
  if (items.value.length === 0) return <p className="muted">No pages yet: the document may still be read.</p>;
  return (
    <div className="thumbs" data-testid="thumbnails">
      {items.value.map((it) => (
        <button type="button" key={it.id} className="thumb" onClick={() => props.onView(it.col)}>
          <img src={sameOrigin(it.share.url)} alt={`page ${it.col}`} loading="lazy" />
          <span>{it.col}</span>
        </button>
      ))}
    </div>
  );
}
