import type { FastifyRequest } from 'fastify';
import { errors } from '../../../domain/errors.ts';
import { multipartError } from '../../../ingest/accept-upload.ts';
import { assertStorableText } from '../../plugins/sanitize.ts';

/**
 * The text fields of a multipart request (start, end, abort carry no file). Files and
 * unknown fields are drained and ignored, as unknown body keys are (section 4).
 */
export async function readFields<K extends string>(
  request: FastifyRequest,
  names: readonly K[],
): Promise<Partial<Record<K, string>>> {
  if (!request.isMultipart()) {
    throw errors.badRequest(`Send multipart/form-data with the fields ${names.join(', ')}.`);
  }
  const out: Partial<Record<K, string>> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') part.file.resume();
      else if ((names as readonly string[]).includes(part.fieldname)) {
        const value = String(part.value);
        assertStorableText(`body.${part.fieldname}`, value);
        out[part.fieldname as K] = value;
      }
    }
  } catch (err) {
    throw multipartError(err) ?? err;
  }
  return out;
}
