import { lookup } from 'node:dns/promises';
import { errors } from '../domain/errors.ts';
import { isPublicAddress } from './address-policy.ts';

const METADATA_HOSTS = new Set(['metadata', 'metadata.google.internal', 'instance-data', 'instance-data.ec2.internal']);

/**
 * The upfront check of an upload `url`, so a loopback or internal address is refused with
 * 400 at once. The download itself re-checks every hop and pins the checked address.
 */
export async function assertFetchableUrl(raw: string): Promise<{ fileName: string | null }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw errors.badRequest('url is not a valid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw errors.badRequest('url must be http or https.');
  if (url.username || url.password) throw errors.badRequest('url must not carry credentials.');
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (METADATA_HOSTS.has(host)) throw errors.badRequest('url points at an internal address.');
  let addresses: string[];
  try {
    addresses = (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    throw errors.badRequest(`url host ${host} cannot be resolved.`);
  }
  if (addresses.length === 0 || !addresses.every(isPublicAddress)) {
    throw errors.badRequest('url points at a loopback, private or otherwise internal address; only public addresses are fetched.');
  }
  const last = url.pathname.split('/').filter(Boolean).pop();
  let fileName: string | null = null;
  try {
    fileName = last ? decodeURIComponent(last).slice(0, 255) : null;
  } catch {
    fileName = last ?? null;
  }
  return { fileName };
}
