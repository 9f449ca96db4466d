import type { EngineColumn, EngineDocument } from '../types.ts';
import { describeCandidate, type Excerpt, type ImageCandidate, type LabelledDocument } from './context.ts';

/** The rules every answer follows, whatever the column. */
export function systemPrompt(column: EngineColumn, multiDocument: boolean): string {
  const where = multiDocument ? 'its document label and 1-based page number' : 'its 1-based page number';
  const lines = [
    'You fill one cell of a spreadsheet by answering a question about one or more documents.',
    `You are given the question, excerpts of the documents' page text (each excerpt headed by ${where})` +
      ' and sometimes images of pages.',
    '',
    'Rules:',
    '- Answer only from the documents given. Do not use outside knowledge and do not guess.',
    '- When the documents do not state the answer, the value is null (for a list: an empty list) and quotes is empty.',
    `- quotes: the words that support the answer, copied exactly as they appear in the page text (verbatim: same words, same spelling, no paraphrase, no "..."), each with ${where}. Keep each quote short: the phrase, sentence or table cell that holds the answer.`,
    '- Dates: always ISO YYYY-MM-DD, whatever format or language the document uses.',
    '- Numbers: a plain JSON number whatever the locale of the document ("1.234,50 EUR" is 1234.5; "$1,234.50" is 1234.5): no currency, units or thousands separators; a percentage as the number shown (12.5 for 12.5%).',
    '- Categories: exactly one of the listed categories, spelled as listed, or null when none applies.',
    '- Yes/no questions: true or false; null only when the documents give no basis either way.',
    '- confidence: from 0 to 1, how sure you are that the value is right.',
  ];
  if (column.locale) {
    lines.push(
      `- Write any text you compose yourself (paraphrases, captions) in the locale ${column.locale}; the locale never changes how numbers and dates are written.`,
    );
  }
  lines.push(
    '',
    'Reply with only one JSON object of this shape, nothing else:',
    multiDocument
      ? '{"quotes": [{"document": "D1", "page": 1, "quote": "..."}], "value": ..., "confidence": 0.9}'
      : '{"quotes": [{"page": 1, "quote": "..."}], "value": ..., "confidence": 0.9}',
  );
  return lines.join('\n');
}

const TYPE_HELP: Record<EngineColumn['outputType'], string> = {
  text_quote: 'short text, preferably the exact words of the document',
  number: 'a number',
  date: 'a date, YYYY-MM-DD',
  boolean: 'yes or no (true or false)',
  categorical: 'exactly one of the categories below',
  list_scalar: 'a list of short text items, one per value the documents give',
  image: 'the one picture or page (from the candidates below) that best answers',
  image_list: 'every picture or page (from the candidates below) that answers',
};

export function userPrompt(
  column: EngineColumn,
  docs: readonly LabelledDocument[],
  excerpts: readonly Excerpt[],
  candidates: readonly ImageCandidate[],
): string {
  const parts: string[] = [`Answer type: ${TYPE_HELP[column.outputType]}.`];
  if (column.outputType === 'categorical') {
    parts.push(`Categories: ${(column.config?.categories ?? []).map((c) => JSON.stringify(c)).join(', ')}`);
  }
  if (candidates.length) {
    parts.push('', 'Candidates (answer with their ids):', ...candidates.map(describeCandidate));
  }
  parts.push('', 'Document excerpts:');
  for (const d of docs) {
    parts.push('', `=== ${d.label}: ${JSON.stringify(d.doc.fileName)}${membership(d.doc, docs.length)} ===`);
    const mine = excerpts.filter((e) => e.doc === d);
    if (mine.length === 0) parts.push('(no text found that bears on the question)');
    for (const e of mine) parts.push(`--- ${d.label} page ${e.page} ---`, e.text);
  }
  parts.push('', `Question: ${column.prompt}`);
  return parts.join('\n');
}

function membership(doc: EngineDocument, count: number): string {
  if (count <= 1) return '';
  const bits = [doc.isPrimary ? 'primary document' : 'supporting document'];
  if (doc.role) bits.push(`role: ${doc.role}`);
  const at = doc.effectiveAt === null ? null : new Date(doc.effectiveAt);
  if (at && !Number.isNaN(at.getTime())) bits.push(`effective ${at.toISOString().slice(0, 10)}`);
  return ` (${bits.join('; ')})`;
}
