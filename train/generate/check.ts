/**
 * Checks a generated document against what PDFium reads from its PDF: every evidence quote
 * is on its page (whitespace collapsed), every picture answer matches an image object, and
 * the questions are well formed. Returns the problems found (none: the document is sound).
 */
import { OUTPUT_TYPES } from '../../src/domain/columns.ts';
import type { Box } from '../../src/engine/types.ts';
import { openPdf } from '../../src/ingest/pdf/document.ts';
import type { GeneratedDoc, RegionAnswer } from './types.ts';

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

export function iou(a: Box, b: Box): number {
  const ix = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0]));
  const iy = Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
  const inter = ix * iy;
  const area = (r: Box) => (r[2] - r[0]) * (r[3] - r[1]);
  return inter / (area(a) + area(b) - inter || 1);
}

export interface PdfPageView {
  text: string;
  images: Box[];
}

export async function readPages(pdf: Uint8Array): Promise<PdfPageView[]> {
  const doc = await openPdf(pdf);
  try {
    return Array.from({ length: doc.pageCount }, (_, i) => ({
      text: collapse(doc.text(i)),
      images: doc.images(i).map((im) => im.box as Box),
    }));
  } finally {
    doc.close();
  }
}

const FORBIDDEN_KEYS = new Set([
  'effective_date',
  'jurisdiction',
  'party',
  'term',
  'term_months',
  'has_fixed_term',
  'contract_num',
  'advertiser',
  'gross_amount',
  'flight_from',
  'flight_to',
  'issuer',
  'invoice_number',
  'date',
  'amount',
  'currency',
]);

export async function checkDoc(doc: GeneratedDoc, pages?: PdfPageView[]): Promise<string[]> {
  const problems: string[] = [];
  const view = pages ?? (await readPages(doc.pdf));
  const where = (key: string) => `${doc.id} (${doc.producer}) ${key}`;
  for (const q of doc.questions) {
    if (FORBIDDEN_KEYS.has(q.key)) problems.push(`${where(q.key)}: key reuses a corpus field name`);
    if (!OUTPUT_TYPES.includes(q.outputType)) problems.push(`${where(q.key)}: bad type ${q.outputType}`);
    if (q.prompts.length < 3 || new Set(q.prompts).size !== q.prompts.length)
      problems.push(`${where(q.key)}: needs 3 distinct prompts`);
    if (q.outputType === 'categorical' && !q.config?.categories?.length)
      problems.push(`${where(q.key)}: no categories`);
    if (q.answer === null) {
      if (q.evidence.length) problems.push(`${where(q.key)}: null answer with evidence`);
      continue;
    }
    // A "no" to "does it state X?" has nothing on the page to point at.
    if (!q.evidence.length && q.answer !== false) problems.push(`${where(q.key)}: answer without evidence`);
    for (const e of q.evidence) {
      const page = view[e.page - 1];
      if (!page) {
        problems.push(`${where(q.key)}: evidence on missing page ${e.page}`);
        continue;
      }
      const quote = collapse(e.quote);
      if (quote && !page.text.includes(quote))
        problems.push(`${where(q.key)}: quote ${JSON.stringify(quote)} not on page ${e.page}`);
    }
    switch (q.outputType) {
      case 'number':
        if (typeof q.answer !== 'number' || !Number.isFinite(q.answer))
          problems.push(`${where(q.key)}: not a number`);
        break;
      case 'date':
        if (typeof q.answer !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(q.answer))
          problems.push(`${where(q.key)}: not an ISO date`);
        break;
      case 'boolean':
        if (typeof q.answer !== 'boolean') problems.push(`${where(q.key)}: not a boolean`);
        break;
      case 'categorical':
        if (typeof q.answer !== 'string' || !q.config?.categories?.includes(q.answer))
          problems.push(`${where(q.key)}: not a category`);
        break;
      case 'text_quote':
        if (
          typeof q.answer !== 'string' ||
          !q.evidence.some((e) => collapse(e.quote).includes(collapse(q.answer as string)))
        )
          problems.push(`${where(q.key)}: answer not in its quote`);
        break;
      case 'list_scalar':
        if (!Array.isArray(q.answer) || q.answer.some((a) => typeof a !== 'string'))
          problems.push(`${where(q.key)}: not a list`);
        break;
      case 'image':
      case 'image_list': {
        const regions = q.answer as RegionAnswer[];
        if (!Array.isArray(regions) || (q.outputType === 'image' && regions.length !== 1)) {
          problems.push(`${where(q.key)}: bad regions`);
          break;
        }
        // A photographed upload moves the pictures; only the PDF's image objects are checked.
        if (doc.upload.mime !== 'application/pdf') break;
        for (const r of regions) {
          const found = view[r.page - 1]?.images ?? [];
          const best = Math.max(0, ...found.map((b) => iou(b, r.box)));
          if (best < 0.9)
            problems.push(
              `${where(q.key)}: region on page ${r.page} matches no image object (IoU ${best.toFixed(2)})`,
            );
        }
        break;
      }
    }
  }
  return problems;
}
