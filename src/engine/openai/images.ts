import type { ContentPart } from './client.ts';
import type { Excerpt, ImageCandidate, LabelledDocument } from './context.ts';

/** Reads the stored image of a page (1-based); null when there is none. */
export type PageImageLoader = (fileId: string, page: number) => Promise<Uint8Array | null>;

/**
 * Page images for models that take them: the pages of image candidates first, then the
 * pages the excerpts came from, most relevant first; the first pages when there is no text.
 * A page whose image cannot be read is left out, never failing the cell.
 */
export async function loadPageImages(
  load: PageImageLoader,
  docs: readonly LabelledDocument[],
  excerpts: readonly Excerpt[],
  candidates: readonly ImageCandidate[],
  max: number,
  signal: AbortSignal,
): Promise<ContentPart[]> {
  const wanted: { doc: LabelledDocument; page: number }[] = [];
  const add = (doc: LabelledDocument, page: number) => {
    if (wanted.length < max && !wanted.some((w) => w.doc === doc && w.page === page))
      wanted.push({ doc, page });
  };
  for (const c of candidates) add(c.doc, c.page);
  for (const e of [...excerpts].sort((a, b) => b.score - a.score)) add(e.doc, e.page);
  if (wanted.length === 0) for (const d of docs) for (const p of d.doc.pages) add(d, p.page);
  const bytes = await Promise.all(wanted.map((w) => load(w.doc.doc.fileId, w.page).catch(() => null)));
  signal.throwIfAborted();
  const parts: ContentPart[] = [];
  wanted.forEach((w, i) => {
    const b = bytes[i];
    if (!b || b.length === 0) return;
    parts.push(
      { type: 'text', text: `Image of ${w.doc.label} page ${w.page}:` },
      {
        type: 'image_url',
        image_url: { url: `data:${mimeOf(b)};base64,${Buffer.from(b).toString('base64')}` },
      },
    );
  });
  return parts;
}

function mimeOf(b: Uint8Array): string {
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return 'image/png';
  if (b[0] === 0x52 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x46 && b[8] === 0x57) return 'image/webp';
  if (b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46) return 'image/gif';
  return 'image/jpeg';
}
