import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform base62 characters: bytes >= 248 are rejected so that no character is favoured. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248) out += ALPHABET[b % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export type IdPrefix =
  | 'ds'
  | 'dsx'
  | 'dsj'
  | 'wks'
  | 'rev'
  | 'rcol'
  | 'rrow'
  | 'rcel'
  | 'rrun'
  | 'bndl'
  | 'rcev'
  | 'rfac'
  | 'wkskey'
  | 'ledg'
  | 'strl'
  | 'task'
  | 'shr'
  | 'hold'
  | 'upls'
  // Webhooks (issue 17): endpoints, messages (the webhook-id header) and attempts.
  | 'whk'
  | 'msg'
  | 'wha';

/** decisions.md D3: prefix + 20 random base62 characters. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(20)}`;
}

export const ID_BODY = /^[0-9A-Za-z]{20}$/;
