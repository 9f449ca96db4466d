import { errors } from '../../../domain/errors.ts';
import { checkUrl, UrlRefusedError } from '../../../ingest/fetch-url.ts';
import type { AppContext } from '../../context.ts';

/** A webhook URL passes the upload URL guard (public addresses only) unless the deployment allows private ones. */
export async function checkTarget(url: string, ctx: AppContext): Promise<void> {
  try {
    await checkUrl(url, ctx.config.webhookAllowPrivate ? { isAllowedAddress: () => true } : {});
  } catch (err) {
    if (err instanceof UrlRefusedError) throw errors.badRequest(err.message);
    throw err;
  }
}
