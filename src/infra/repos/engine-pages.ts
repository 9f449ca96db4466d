import type { EnginePage, PageImage, PageWord } from '../../engine/types.ts';
import type { Queryable } from '../db/database.ts';

/** Words are stored compactly as `[text, xmin, ymin, xmax, ymax]` (see store-pages). */
type StoredWord = [string, number, number, number, number];

interface PageSelect {
  file_id: string;
  page: number;
  width: number;
  height: number;
  text: string;
  words: StoredWord[];
  images: PageImage[] | null;
  ocr: boolean;
}

/** The pages of each file, in page order, as the answer engines read them. */
export async function loadEnginePages(
  q: Queryable,
  fileIds: readonly string[],
): Promise<Map<string, EnginePage[]>> {
  const out = new Map<string, EnginePage[]>(fileIds.map((id) => [id, []]));
  if (fileIds.length === 0) return out;
  const rows = await q.query<PageSelect>(
    `SELECT file_id, page, width, height, text, words, images, ocr FROM file_pages
      WHERE file_id = ANY($1::text[]) ORDER BY file_id, page`,
    [fileIds],
  );
  for (const r of rows) {
    const words: PageWord[] = r.words.map((w) => ({ text: w[0], box: [w[1], w[2], w[3], w[4]] }));
    out.get(r.file_id)?.push({
      page: r.page,
      width: r.width,
      height: r.height,
      text: r.text,
      words,
      images: r.images ?? [],
      ocr: r.ocr,
    });
  }
  return out;
}
