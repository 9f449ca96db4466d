import { orderDocuments, type PerDocument, reduce } from '../reduce.ts';
import type { AnswerEngine, EngineAnswer, EngineColumn, EngineSubject } from '../types.ts';
import { answerDocument, type DocumentAnswer, queryFor } from './answer-document.ts';
import { defaultModel, type ScorerModel } from './model.ts';
import { answerDocument as answerByRules } from './rules-answer.ts';

/**
 * How candidates are ranked: `learned` (the default: model/weights.json from `npm run train`),
 * `rules` (the earlier hand-weighted evidence, kept selectable), or a model given directly
 * (training and evaluation).
 */
export type Scorer = 'rules' | 'learned' | ScorerModel;

/**
 * The offline engine (D5): candidates read from the page words and their layout, ranked
 * by the chosen scorer, citations built from the stored words. Deterministic.
 */
export function createLocalEngine(scorer: Scorer = 'learned'): AnswerEngine {
  return {
    name: 'local',
    async answer(column: EngineColumn, subject: EngineSubject): Promise<EngineAnswer> {
      return answerLocally(column, subject, scorer);
    },
  };
}

export function answerLocally(
  column: EngineColumn,
  subject: EngineSubject,
  scorer: Scorer = 'learned',
): EngineAnswer {
  const model = scorer === 'rules' ? null : scorer === 'learned' ? defaultModel() : scorer;
  const query = queryFor(column);
  const docs = orderDocuments(subject.documents);
  if (docs.length === 0) return { status: 'ERROR', statusText: 'the subject has no documents', facts: [] };
  const perDoc: (PerDocument & { score: number })[] = docs.map((doc) => {
    const a: DocumentAnswer = model
      ? answerDocument(column, query, doc, model)
      : answerByRules(column, query, doc);
    return { doc, ...a };
  });
  if (
    !column.isCompositional ||
    docs.length === 1 ||
    column.outputType === 'list_scalar' ||
    column.outputType === 'image_list'
  ) {
    return reduce(column, perDoc);
  }
  // Compositional: one answer for the whole subject, the best evidence wherever it is.
  const facts = reduce(column, perDoc).facts;
  const found = perDoc.filter((d) => d.status === 'SUCCESS' && !d.empty).sort((a, b) => b.score - a.score);
  if (found.length === 0) return reduce(column, perDoc);
  const best = found[0]!;
  return {
    status: 'SUCCESS',
    value: best.value!,
    citations: best.citations,
    confidence: best.confidence ?? 0,
    facts,
  };
}
