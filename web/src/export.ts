// Table export downloads (issue 16): GET .../tables/:tableId/export with the key in the
// x-api-key header (never in a URL, so a plain link cannot carry it), saved through a blob URL.

import { ApiError, errorFrom } from './api.ts';

export type ExportFormat = 'csv' | 'xlsx' | 'json';
export type ExportExtra = 'confidence' | 'citations' | 'status';

export const EXPORT_FORMATS: { format: ExportFormat; label: string; hint: string }[] = [
  { format: 'csv', label: 'CSV', hint: 'comma-separated text, RFC 4180' },
  { format: 'xlsx', label: 'XLSX', hint: 'Excel workbook: numbers and dates typed' },
  { format: 'json', label: 'JSON', hint: 'an array of row objects' },
];

/** The file name a Content-Disposition header gives: `filename*` (UTF-8) first, then `filename`. */
export function fileNameFrom(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1]!.trim());
    } catch {
      // A malformed encoding: fall back to the plain name.
    }
  }
  const plain = /filename\s*=\s*"([^"]*)"/i.exec(header) ?? /filename\s*=\s*([^;]+)/i.exec(header);
  return plain ? plain[1]!.trim() : null;
}

/**
 * Downloads a table export and hands it to the browser as a file; resolves to its name.
 * Refusals throw an ApiError in plain words, as every other call of the app does.
 */
export async function downloadTableExport(
  auth: { key: string; ws: string },
  tableId: string,
  format: ExportFormat,
  opts: { include?: ExportExtra[]; bom?: boolean } = {},
): Promise<string> {
  const query = new URLSearchParams({ format });
  if (opts.include && opts.include.length > 0) query.set('include', opts.include.join(','));
  if (opts.bom) query.set('bom', 'true');
  let res: Response;
  try {
    res = await fetch(
      `/v2/workspaces/${encodeURIComponent(auth.ws)}/tables/${encodeURIComponent(tableId)}/export?${query}`,
      { headers: { 'x-api-key': auth.key }, cache: 'no-store' },
    );
  } catch {
    throw new ApiError(0, '');
  }
  if (!res.ok) throw errorFrom(res.status, res.headers.get('content-type'), await res.text());
  const blob = await res.blob();
  const name = fileNameFrom(res.headers.get('content-disposition')) ?? `table.${format}`;
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The browser has the file once the click is handled; the blob is released a little later.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
  return name;
}
