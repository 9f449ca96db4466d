/**
 * Training examples: a document as the engine sees it, a column, and the true answer.
 * From generated families (any number, by seed) and from a labelled corpus folder
 * (labels.jsonl + fields.json, read as data: nothing here names a field).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { OutputType } from '../src/domain/columns.ts';
import type { EngineColumn, EngineDocument, EnginePage } from '../src/engine/types.ts';
import { readEnginePages } from '../test/fixtures/contract.ts';
import type { GeneratedDoc, GoldAnswer } from './generate/types.ts';

/** Ids of the labelled real documents' examples start with this; generated ones never do. */
export const CORPUS_PREFIX = 'corpus_';

export interface Example {
  /** Family (generated) or dataset (corpus) name. */
  family: string;
  docId: string;
  key: string;
  column: EngineColumn;
  doc: EngineDocument;
  gold: GoldAnswer;
  evidence: { page: number; quote: string }[];
}

export function documentOf(id: string, pages: EnginePage[]): EngineDocument {
  return {
    fileId: id,
    fileName: `${id}.pdf`,
    pages,
    isPrimary: true,
    role: null,
    effectiveAt: null,
    sortOrder: 0,
  };
}

export const column = (
  prompt: string,
  outputType: OutputType,
  config: EngineColumn['config'],
): EngineColumn => ({
  prompt,
  outputType,
  config,
  isCompositional: false,
  locale: null,
});

/** Every question of a generated document, each with `phrasings` of its prompts. */
export async function examplesOfGenerated(
  doc: GeneratedDoc,
  pick: (prompts: string[]) => string[],
): Promise<Example[]> {
  const pages = await readEnginePages(doc.pdf);
  const engineDoc = documentOf(doc.id, pages);
  const out: Example[] = [];
  for (const q of doc.questions) {
    for (const prompt of pick(q.prompts)) {
      out.push({
        family: doc.family,
        docId: doc.id,
        key: q.key,
        column: column(prompt, q.outputType, q.config),
        doc: engineDoc,
        gold: q.pdfAnswer !== undefined ? q.pdfAnswer : q.answer,
        evidence: q.evidence,
      });
    }
  }
  return out;
}

interface LabelRow {
  file: string;
  dataset: string;
  field: string;
  type: OutputType;
  answer: GoldAnswer;
  evidence?: { page: number; quote: string }[];
}

interface FieldSpec {
  dataset: string;
  field: string;
  outputType: OutputType;
  prompt: string;
  config: EngineColumn['config'];
}

/** A labelled folder: its PDFs read as the engine sees them (image-only scans skipped). */
export async function examplesOfCorpus(dir: string, fieldsFile: string): Promise<Example[]> {
  const labels = readFileSync(path.join(dir, 'labels.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as LabelRow);
  const specs = JSON.parse(readFileSync(fieldsFile, 'utf8')) as FieldSpec[];
  const spec = new Map(specs.map((s) => [`${s.dataset}/${s.field}`, s]));
  const docs = new Map<string, EngineDocument | null>();
  const out: Example[] = [];
  for (const row of labels) {
    const file = path.join(dir, path.basename(row.file));
    if (!existsSync(file) || !file.endsWith('.pdf')) continue;
    if (!docs.has(file)) {
      const pages = await readEnginePages(new Uint8Array(readFileSync(file)));
      const hasText = pages.some((p) => p.words.length > 5);
      docs.set(file, hasText ? documentOf(`${CORPUS_PREFIX}${path.basename(file, '.pdf')}`, pages) : null);
    }
    const doc = docs.get(file);
    const s = spec.get(`${row.dataset}/${row.field}`);
    if (!doc || !s) continue;
    out.push({
      family: row.dataset,
      docId: doc.fileId,
      key: row.field,
      column: column(s.prompt, s.outputType, s.config),
      doc,
      gold: row.answer,
      evidence: (row.evidence ?? []).map((e) => ({ page: e.page, quote: e.quote })),
    });
  }
  return out;
}
