/**
 * The contract between the document generator and its users (training, leave-one-family-out
 * evaluation, engine tests). A generated document carries its own answers, so nothing about
 * any corpus is written down anywhere: the facts are drawn at random per seed.
 */
import type { OutputType } from '../../src/domain/columns.ts';
import type { Box, ColumnConfig } from '../../src/engine/types.ts';

/** A picture the generator drew, as a region answer: 1-based page, box in 0-1 page fractions. */
export interface RegionAnswer {
  page: number;
  box: Box;
  /** Caption text printed next to it, if any. */
  caption: string | null;
}

export type GoldAnswer = string | number | boolean | string[] | RegionAnswer[] | null;

export interface GeneratedQuestion {
  /** Stable within a family ("total", "issue_date"); only used to group results. */
  key: string;
  outputType: OutputType;
  /** At least three phrasings of the same question, as a user would type a column prompt. */
  prompts: string[];
  config: ColumnConfig | null;
  /**
   * The true answer; null when this document does not state it. text_quote answers are the
   * exact words printed; list answers one string per item; image answers the regions.
   */
  answer: GoldAnswer;
  /** Where the answer is printed: 1-based page and verbatim text (for lists one per item). */
  evidence: { page: number; quote: string }[];
  /**
   * The answer as read from the born-digital `pdf` when it differs from the upload's: a
   * photographed page's regions sit elsewhere in the photo than on the PDF page.
   */
  pdfAnswer?: GoldAnswer;
}

export interface GeneratedDoc {
  family: string;
  /** Unique per (family, seed, index). */
  id: string;
  /** Which layout/producer variant drew it, for reports. */
  producer: string;
  /** What to upload: a PDF, or a photographed page (JPEG) that ingest must OCR. */
  upload: { bytes: Uint8Array; mime: 'application/pdf' | 'image/jpeg'; fileName: string };
  /** The born-digital PDF the upload was made from (same as upload.bytes for PDFs). */
  pdf: Uint8Array;
  questions: GeneratedQuestion[];
}

export interface Family {
  name: string;
  generate(seed: number): Promise<GeneratedDoc>;
}
