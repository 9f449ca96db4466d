/**
 * The answer-engine contract (interface.md 2.2, 2.4, 2.6; decisions.md D5). Engines see
 * only documents already read by ingest; they never touch HTTP or SQL.
 */
import type { OutputType } from '../domain/columns.ts';

/** xmin, ymin, xmax, ymax as 0-1 fractions of the page as displayed, origin top-left. */
export type Box = [number, number, number, number];

export interface PageWord {
  text: string;
  box: Box;
}

/** A picture on a page (image object found by PDFium), for image columns. */
export interface PageImage {
  box: Box;
}

export interface EnginePage {
  /** 1-based page number. */
  page: number;
  /** Size of the displayed page in points, to compare horizontal and vertical distances. */
  width: number;
  height: number;
  /** The stored page text; every citation quote occurs in it verbatim (whitespace collapsed). */
  text: string;
  words: PageWord[];
  images: PageImage[];
  ocr: boolean;
}

export interface EngineDocument {
  fileId: string;
  fileName: string;
  pages: EnginePage[];
  /** Bundle membership; a single-file row is a bundle of one primary document. */
  isPrimary: boolean;
  role: string | null;
  effectiveAt: number | null;
  sortOrder: number;
}

export interface EngineColumn {
  prompt: string;
  outputType: OutputType;
  /** The column's config, already parsed; null when absent or not a JSON object. */
  config: ColumnConfig | null;
  isCompositional: boolean;
  locale: string | null;
}

export interface ColumnConfig {
  categories?: string[];
  dateDisplay?: string;
  [key: string]: unknown;
}

export interface EngineSubject {
  kind: 'file' | 'bundle';
  documents: EngineDocument[];
}

export interface Citation {
  fileId: string;
  page: number;
  quote: string;
  box: Box | null;
}

export interface Region {
  fileId: string;
  page: number;
  box: Box | null;
  caption: string;
}

export type ScalarValue = string | number | boolean | string[] | null;

/** A typed answer `{type, value}`; image columns answer with an array of regions (2.4). */
export type AnswerValue =
  | { type: Exclude<OutputType, 'image' | 'image_list'>; value: ScalarValue }
  | Region[];

/** Per-document workings of a bundle row (2.6); citations carry `fileId` here, `datasetId` on the wire. */
export interface Fact {
  fileId: string;
  role: string | null;
  effectiveAt: number | null;
  sortOrder: number;
  status: 'SUCCESS' | 'ERROR';
  value: AnswerValue | null;
  citations: Citation[];
  confidence: number | null;
}

export type EngineAnswer =
  | {
      status: 'SUCCESS';
      value: AnswerValue;
      citations: Citation[];
      /** 0-1 triage signal, not a probability. */
      confidence: number;
      facts: Fact[];
    }
  | { status: 'ERROR'; statusText: string; facts: Fact[] };

export interface AnswerEngine {
  readonly name: string;
  answer(column: EngineColumn, subject: EngineSubject, signal?: AbortSignal): Promise<EngineAnswer>;
  close?(): Promise<void>;
}

/** Raised for failures that should end the cell ERROR with this message (never charged). */
export class EngineError extends Error {}
