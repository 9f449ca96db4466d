import { type FormEvent, useState } from 'react';
import { type FileItem, sameOrigin } from '../api.ts';
import { type PageTarget, PageViewer } from '../PageViewer.tsx';
import { useSession } from '../session.tsx';
import { ErrorNote, Spinner } from '../ui.tsx';
import { usePageImage } from '../values.tsx';

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(new Error('The image could not be read.'));
    r.readAsDataURL(file);
  });
}

/** Page search (POST /v1/search): pages, not answers; each search costs a credit. */
export function SearchPage() {
  const { api, files, refreshWorkspace } = useSession();
  const [text, setText] = useState('');
  const [image, setImage] = useState<File | null>(null);
  const [results, setResults] = useState<FileItem[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [viewing, setViewing] = useState<PageTarget | null>(null);

  const search = async (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim() && !image) return;
    setBusy(true);
    setError(null);
    try {
      const query = image
        ? { ...(text.trim() ? { text: text.trim() } : {}), image_url: await readAsDataUrl(image) }
        : text.trim();
      const items = await api.post<FileItem[]>('/v1/search', { query, limit: 24 });
      setResults([...items].sort((a, b) => (b.score ?? 0) - (a.score ?? 0)));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
      refreshWorkspace();
    }
  };

  return (
    <section>
      <h1>Search pages</h1>
      <form className="stack narrow" onSubmit={search}>
        <input
          aria-label="search text"
          placeholder="Ask as a question, e.g. Which contracts are governed by Delaware law?"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <label>
          or find pages like an image:{' '}
          <input
            type="file"
            accept="image/jpeg,image/png,image/webp"
            aria-label="query image"
            onChange={(e) => setImage(e.target.files?.[0] ?? null)}
          />
        </label>
        <button type="submit" disabled={busy || (!text.trim() && !image)}>
          {busy ? 'Searching…' : 'Search'}
        </button>
        <p className="muted">Each search costs 1 credit.</p>
      </form>
      <ErrorNote error={error} onClose={() => setError(null)} />
      {busy && <Spinner label="searching" />}
      {results && results.length === 0 && <p className="muted">No matching pages.</p>}
      {results && results.length > 0 && (
        <div className="results" data-testid="search-results">
          {results.map((item) => {
            const fileId = item.fileId ?? item.datasetId ?? '';
            return (
              <button
                type="button"
                key={item.id}
                className="result"
                onClick={() => setViewing({ fileId, page: item.col })}
              >
                <ResultImage item={item} fileId={fileId} />
                <span className="where">
                  {files.get(fileId)?.fileName ?? fileId}, p. {item.col}
                </span>
                <span className="score">score {(item.score ?? 0).toFixed(3)}</span>
              </button>
            );
          })}
        </div>
      )}
      {viewing && <PageViewer target={viewing} onClose={() => setViewing(null)} />}
    </section>
  );
}

function ResultImage(props: { item: FileItem; fileId: string }) {
  // A pdf match has no picture of its own: show that page's image instead.
  if (props.item.row !== 'pdf') {
    return <img src={sameOrigin(props.item.share.url)} alt={`page ${props.item.col}`} loading="lazy" />;
  }
  return <PageImage fileId={props.fileId} page={props.item.col} />;
}

function PageImage(props: { fileId: string; page: number }) {
  const { api } = useSession();
  const { url } = usePageImage(api, props.fileId, props.page);
  return url ? <img src={url} alt={`page ${props.page}`} loading="lazy" /> : <Spinner />;
}
