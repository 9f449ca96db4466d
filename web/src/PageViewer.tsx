import { useState } from 'react';
import type { Box } from './api.ts';
import { useSession } from './session.tsx';
import { ErrorNote, Modal, Spinner } from './ui.tsx';
import { usePageImage } from './values.tsx';

export interface PageTarget {
  fileId: string;
  page: number;
  box?: Box | null;
  quote?: string;
}

/**
 * One page image fetched through a share link, with the cited box drawn over it. Boxes are
 * 0-1 fractions of the page image, so the overlay is placed in percentages of the frame,
 * which is exactly the rendered image.
 */
export function PageViewer(props: { target: PageTarget; onClose: () => void }) {
  const { api, files } = useSession();
  const { fileId, page, box, quote } = props.target;
  const { url, error } = usePageImage(api, fileId, page);
  const [loaded, setLoaded] = useState(false);
  const name = files.get(fileId)?.fileName ?? fileId;
  return (
    <Modal title={`${name}, page ${page}`} onClose={props.onClose} wide>
      {quote && (
        <blockquote className="quote" data-testid="citation-quote">
          “{quote}”
        </blockquote>
      )}
      {box === null && quote && (
        <p className="muted">No box was located for this quote: the whole page is cited.</p>
      )}
      <ErrorNote error={error} />
      {!error && (
        <div className="page-frame" data-testid="citation-frame">
          {!loaded && <Spinner label="loading page" />}
          {url && (
            <img
              src={url}
              alt={`page ${page} of ${name}`}
              data-testid="citation-image"
              onLoad={() => setLoaded(true)}
            />
          )}
          {loaded && box && (
            <div
              className="box-overlay"
              data-testid="citation-box"
              style={{
                left: `${box[0] * 100}%`,
                top: `${box[1] * 100}%`,
                width: `${(box[2] - box[0]) * 100}%`,
                height: `${(box[3] - box[1]) * 100}%`,
              }}
            />
          )}
        </div>
      )}
    </Modal>
  );
}
