import { errors } from '../domain/errors.ts';
import { checkUrl, UrlRefusedError } from './fetch-url.ts';

/**
 * The upfront check of an upload `url`, so a loopback or internal address is refused with
 * 400 at once. The download itself re-checks every hop and pins the checked address.
 */
export async function assertFetchableUrl(raw: string): Promise<{ fileName: string | null }> {
  try {
    const { url } = await checkUrl(raw);
    const last = url.pathname.split('/').filter(Boolean).pop();
    return { fileName: last ? safeDecode(last).slice(0, 255) : null };
  } catch (err) {
    if (err instanceof UrlRefusedError) throw errors.badRequest(err.message);
    throw err;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
