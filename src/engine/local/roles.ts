import { nounKind } from './nouns.ts';

/**
 * The two sides of an exchange that documents name: the party that issues, sends, sells or
 * provides, and the party that receives, buys, is billed or is addressed. A document often
 * prints both names in similar blocks; the printed caption ("Bill to", "Seller:", "Ship to")
 * tells them apart, and the question says which side it wants. These are measurements for the
 * scorer, which learns how much they count; general trade and correspondence vocabulary
 * (English and the commonest continental captions), not the words of any one document set.
 */
export type Side = 1 | -1 | 0;

/** Captions of the issuing or sending side, one party or several ("Tenants:"). */
const GIVER_CAPTION =
  /\b(?:from|seller|sold by|vendor|supplier|provider|provided by|merchant|issued by|billed by|remit(?:tance)? to|pay(?:able)? to|payee|sender|shipper|consignor|lessor|landlord|licensor|employer|contractor|absender|verk[äa]ufer|lieferant|rechnungssteller|leverancier|verkoper|fournisseur|vendeur|[ée]metteur)s?\b/i;
/** Captions of the receiving or paying side. */
const TAKER_CAPTION =
  /\b(?:bill(?:ed)? to|invoice(?:d)? to|sold to|ship(?:ped)? to|deliver(?:ed|y)? to|customer|client|buyer|purchaser|recipient|consignee|attn|attention|addressed to|licen[cs]ed to|licensee|lessee|tenant|employee|payer|(?:account|card|policy)\s?holder|kunde|empf[äa]nger|k[äa]ufer|rechnung an|klant|factuuradres|acheteur|destinataire|factur[ée] [àa])s?\b/i;

const BARE_CAPTION = new RegExp(`^(?:${GIVER_CAPTION.source}|${TAKER_CAPTION.source})$`, 'i');

/** A caption and nothing else ("Sold By", "Bill To:"): the label of a party, never its name. */
export function isBareCaption(text: string): boolean {
  return BARE_CAPTION.test(text.replace(/[\s:#\-–]+$/, ''));
}

/** The side a caption names, or 0 when it names neither or both. */
export function captionSide(text: string): Side {
  if (!text) return 0;
  // "To" alone over an address block names the addressee; inside a sentence it names nothing.
  if (/^to\s*:?$/i.test(text.trim())) return -1;
  const giver = GIVER_CAPTION.test(text);
  const taker = TAKER_CAPTION.test(text);
  return giver === taker ? 0 : giver ? 1 : -1;
}

/** Question wording that asks for the issuing side ("who issued", "the seller", "which company is billing"). */
const GIVER_ASKED =
  /\b(?:issu(?:ed|es|ing)|sent|sends|sold by|sells|seller|vendor|supplier|provider|provides|merchant|sender|billing|billed by|payee|lessor|landlord|employer|from whom|shipper)s?\b/g;
/**
 * Question wording that asks for the receiving side ("addressed to", "the customer", "being
 * billed"). Whoever receives a copy ("cc recipients") is no party to the exchange.
 */
const TAKER_ASKED =
  /\b(?:customer|client|buyer|purchaser|(?<!\b(?:b?cc|copy|copies|carbon[- ]copy)\s+)recipient|consignee|addressed to|bill(?:ed)?[- ]to|(?:is|are|was|being) billed|sold to|shipped to|delivered to|lessee|tenant|employee|payer|received|to whom|(?:account|card|policy)\s?holder|whose account|name on the (?:account|card|policy|bill))s?\b/g;

/**
 * Which side a question asks for, from its own words; words it rules out ("not the customer")
 * count for the other side.
 */
export function askedSide(asked: string, ruledOut: string): Side {
  const count = (s: string, re: RegExp) => (s.match(re) ?? []).length;
  const score =
    count(asked, GIVER_ASKED) -
    count(asked, TAKER_ASKED) +
    count(ruledOut, TAKER_ASKED) -
    count(ruledOut, GIVER_ASKED);
  return score > 0 ? 1 : score < 0 ? -1 : 0;
}

/**
 * English names the two sides of a relation from one verb: the one who acts in -er or -or
 * ("insurer", "lessor", "payer"), the one acted on in -ee ("lessee", "payee") or, as a caption
 * of its own, -ed ("INSURED" above a name, but not "Approved" or "Approved by"). A caption naming the other
 * side names the opposite of what is asked, though the stems agree.
 */
export function counterpartsOf(prompt: string): Set<string> {
  const words = prompt.toLowerCase().match(/\p{L}+/gu) ?? [];
  const out = new Set<string>();
  for (const w of words) {
    if (w.length < 5) continue;
    const agent = /^(\p{L}{3,}?)(?:er|or)$/u.exec(w);
    const patient = /^(\p{L}{3,}?)ee$/u.exec(w);
    // "-ed" names a party only where the lexicon files it as one ("the insured"); "Approved" is
    // the approver's own caption.
    if (agent) for (const f of ['ee', 'ed']) if (f === 'ee' || nounKind(agent[1] + f)) out.add(agent[1] + f);
    if (patient) for (const f of ['er', 'or']) out.add(patient[1] + f);
  }
  for (const w of words) out.delete(w);
  return out;
}
/** Whether a caption names the counterpart of the side asked for (counterpartsOf). */
export function namesCounterpart(counterparts: ReadonlySet<string>, text: string): boolean {
  if (counterparts.size === 0) return false;
  const agentNamed = /\bby\b/i.test(text);
  return (text.toLowerCase().match(/\p{L}+/gu) ?? []).some(
    (w) => counterparts.has(w) && !(agentNamed && w.endsWith('ed')),
  );
}

/**
 * A caption with each word naming the counterpart replaced by a word no question asks for: it
 * still counts as a word of the caption, but matches nothing ("INSURED" shares its stem with
 * "insurer" and is its opposite).
 */
export function maskCounterparts(counterparts: ReadonlySet<string>, text: string): string {
  if (counterparts.size === 0) return text;
  const agentNamed = /\bby\b/i.test(text);
  return text.replace(/\p{L}+/gu, (w) => {
    const lower = w.toLowerCase();
    return counterparts.has(lower) && !(agentNamed && lower.endsWith('ed')) ? 'counterpart' : w;
  });
}
