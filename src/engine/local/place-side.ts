import type { Line, Segment } from '../text/layout.ts';
import type { DocIndex } from './doc-index.ts';
import { lineOfWord } from './nearby.ts';
import { namesWriting } from './nouns.ts';
import { captionSide, isBareCaption, type Side } from './roles.ts';
import { type TypedCandidate, textTraits } from './typed-candidates.ts';

/** How many lines under a name its street or postcode line may come. */
const ADDRESS_WITHIN = 2;

interface Parties {
  /** Page one's letterhead line, or -1. */
  sender: number;
  /** Page one's lines that head an uncaptioned address block below its letterhead. */
  addressees: Set<number>;
  /**
   * The page captions another party as the seller ("Vendor", "Supplier" over a name not the
   * letterhead's): the letterhead is then the buyer issuing its order, and its addressee the seller.
   */
  buyerIssued: boolean;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0;

/** A line's first segment reads as a name: capitalised, no figures, no caption or title. */
const nameLike = (seg: Segment | undefined): seg is Segment =>
  !!seg &&
  /^\p{Lu}\p{L}/u.test(seg.text) &&
  !/\d{3}|:\s*$/.test(seg.text) &&
  captionSide(seg.text) === 0 &&
  !isBareCaption(seg.text) &&
  !textTraits(seg.text).writing;

/**
 * A letterhead's name: two words or more, most of them capitalised (no motto set large), none
 * of its ends naming a kind of writing ("Retail Invoices/Bill", "Bill Type").
 */
function senderLike(seg: Segment | undefined): boolean {
  if (!nameLike(seg)) return false;
  const words = seg.text.toLowerCase().match(/\p{L}+/gu) ?? [];
  if (words.length < 2 || (textTraits(seg.text).nameShape ?? 0) < 0.5 || /\d/.test(seg.text)) return false;
  return !namesWriting(words[0]!) && !namesWriting(words[words.length - 1]!);
}

function partiesOf(index: DocIndex): Parties {
  const hit = index.memo.get('parties') as Parties | undefined;
  if (hit) return hit;
  const out: Parties = { sender: -1, addressees: new Set(), buyerIssued: false };
  const layout = index.layouts[0];
  const page = index.doc.pages[0];
  if (layout && page && layout.lines.length > 0) {
    const W = page.width || 612;
    const H = page.height || 792;
    const lines = layout.lines;
    const body = median(lines.map((l) => l.height));
    out.sender = lines.findIndex(
      (l) => l.box[1] < 0.2 && l.height >= 1.3 * body && senderLike(l.segments[0]),
    );
    // The segment of line l starting where `head` starts (within a line height): same block.
    const alignedOn = (head: Segment, line: Line, l: number) =>
      lines[l]!.segments.find((s) => Math.abs(s.box[0] - head.box[0]) * W <= line.height);
    // The letterhead's own lines under its name (a motto, the sender's street) are no addressee.
    let letterhead = out.sender;
    const sender = lines[out.sender]?.segments[0];
    while (sender && letterhead + 1 < lines.length) {
      const seg = alignedOn(sender, lines[out.sender]!, letterhead + 1);
      if (!seg || (seg.box[1] - lines[letterhead]!.box[3]) * H > 1.5 * body) break;
      letterhead++;
    }
    // Without a letterhead the first block may be the sender's own (a seller's name and street
    // over the "Bill to" block): no block is taken for the addressee's.
    lines.forEach((line, li) => {
      if (out.sender < 0 || li <= letterhead || line.box[1] > 0.6) return;
      const head = line.segments[0];
      // Capitals alone head notices and boxes of a form ("INSURED", "DOES NOT AMEND") more often than an address.
      if (!nameLike(head) || line.height > 1.2 * body || !/\p{Ll}/u.test(head.text)) return;
      // A name, not a street line or the start of a sentence.
      if (head.words.length > 6 || textTraits(head.text).addressShape) return;
      // A caption over the block ("Bill to", "Vendor:") says which side it is; the scorer reads that.
      const above = li > 0 ? alignedOn(head, line, li - 1) : undefined;
      if (above && (head.box[1] - above.box[3]) * H < 1.5 * line.height) {
        if (/:\s*$/.test(above.text) || captionSide(above.text) !== 0) return;
      }
      let prevBottom = head.box[3];
      for (let l = li + 1; l < lines.length && l <= li + ADDRESS_WITHIN; l++) {
        const seg = alignedOn(head, line, l);
        if (!seg || (seg.box[1] - prevBottom) * H > 1.5 * line.height) break;
        if (lines[l]!.height > 1.25 * line.height || lines[l]!.height < 0.8 * line.height) break;
        if (textTraits(seg.text).addressShape) {
          out.addressees.add(li);
          break;
        }
        prevBottom = seg.box[3];
      }
    });
  }
  if (out.sender >= 0) out.buyerIssued = sellerCaptionedApart(index, out.sender);
  index.memo.set('parties', out);
  return out;
}

/** Capitalised words of four letters or more: what two printings of one party's name share. */
const nameWords = (text: string) => new Set(text.toLowerCase().match(/\p{L}{4,}/gu) ?? []);

/** Whether page one captions a seller ("Vendor", "Supplier:") over or before a name that is not the letterhead's. */
function sellerCaptionedApart(index: DocIndex, sender: number): boolean {
  const lines = index.layouts[0]!.lines;
  const own = nameWords(lines[sender]!.segments[0]!.text);
  const W = index.doc.pages[0]?.width || 612;
  for (const [li, line] of lines.entries()) {
    for (const [si, seg] of line.segments.entries()) {
      if (!isBareCaption(seg.text) || captionSide(seg.text) !== 1) continue;
      const below = lines[li + 1]?.segments.find((g) => Math.abs(g.box[0] - seg.box[0]) * W <= line.height);
      const named = line.segments[si + 1] ?? below;
      if (!named || !nameLike(named)) continue;
      const words = nameWords(named.text);
      if (words.size > 0 && ![...words].some((w) => own.has(w))) return true;
    }
  }
  return false;
}

/**
 * The side a name takes from where it is printed on page one, whatever its caption: the name
 * in large type heading the page (a letterhead: the shop, the bank, the employer, the writer)
 * sends the document; a name over an address block below it, uncaptioned, is its addressee (the
 * account holder, the customer, the employee). Correspondence sets them so; the scorer learns
 * how far that holds for each side asked. A page that captions someone else as the seller was
 * issued by the buyer (a purchase order), and the sides turn.
 */
export function placeSide(index: DocIndex, c: TypedCandidate): Side {
  if (c.at.page !== 0) return 0;
  const parties = partiesOf(index);
  const word = c.at.unit.words[c.at.from]!;
  const li = lineOfWord(index, 0)[word] ?? -1;
  // The name the line starts with, not words inside it ("Pharmacy" of "State Board of Pharmacy").
  if (li < 0 || index.layouts[0]!.lines[li]!.segments[0]!.words[0] !== word) return 0;
  const side: Side = li === parties.sender ? 1 : parties.addressees.has(li) ? -1 : 0;
  return parties.buyerIssued ? (-side as Side) : side;
}
