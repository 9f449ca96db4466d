/**
 * `npm run eval -- --oracle`: a stand-in engine that answers every cell with its label,
 * citing the label's evidence quotes on their pages (box: the whole page). A self-test
 * of the eval: accuracy must be 100%; its quote rate shows how many label quotes occur
 * verbatim in our stored page text (OCR and text extraction differ from pdftotext).
 */
import type { AnswerEngine, EngineAnswer, EngineColumn, EngineSubject } from '../../src/engine/types.ts';
import type { LabelRow } from './score.ts';

export function createOracleEngine(
  labelFor: (column: EngineColumn, fileName: string) => LabelRow,
): AnswerEngine {
  return {
    name: 'oracle (labels)',
    async answer(column: EngineColumn, subject: EngineSubject): Promise<EngineAnswer> {
      const doc = subject.documents[0]!;
      const label = labelFor(column, doc.fileName);
      const type = column.outputType;
      if (type === 'image' || type === 'image_list') {
        return { status: 'ERROR', statusText: 'oracle: no image labels', facts: [] };
      }
      const value = label.answer === null && type === 'list_scalar' ? [] : label.answer;
      const citations = (label.evidence ?? []).map((e) => ({
        fileId: doc.fileId,
        page: e.page,
        quote: e.quote,
        box: [0, 0, 1, 1] as [number, number, number, number],
      }));
      return { status: 'SUCCESS', value: { type, value }, citations, confidence: 1, facts: [] };
    },
  };
}
