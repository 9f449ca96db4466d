import type {
  AnswerValue,
  Citation,
  EngineAnswer,
  EngineColumn,
  EngineDocument,
  Fact,
  Region,
  ScalarValue,
} from './types.ts';

/** What an engine found in one document of a subject. */
export interface PerDocument {
  doc: EngineDocument;
  status: 'SUCCESS' | 'ERROR';
  statusText?: string;
  value: AnswerValue | null;
  citations: Citation[];
  confidence: number | null;
  /** Found nothing in this document. */
  empty: boolean;
}

/** Primary first, then the order the bundle gives. */
export function orderDocuments(docs: readonly EngineDocument[]): EngineDocument[] {
  return [...docs].sort((a, b) => Number(b.isPrimary) - Number(a.isPrimary) || a.sortOrder - b.sortOrder);
}

export function factOf(d: PerDocument): Fact {
  return {
    fileId: d.doc.fileId,
    role: d.doc.role,
    effectiveAt: d.doc.effectiveAt,
    sortOrder: d.doc.sortOrder,
    status: d.status,
    value: d.value,
    citations: d.citations,
    confidence: d.confidence,
  };
}

const scalar = (v: AnswerValue | null): ScalarValue => (v && !Array.isArray(v) ? v.value : null);
const key = (v: ScalarValue) => (typeof v === 'string' ? v.trim().toUpperCase() : JSON.stringify(v));

/**
 * Non-compositional bundles: each document answered alone, then reduced by a rule per
 * output type. Lists and image lists unite; yes/no is yes when any document says so;
 * other values agree or conflict, and a conflict goes to the newest `effectiveAt` (an
 * amendment supersedes), then to the primary document, then to the higher confidence.
 */
export function reduce(column: EngineColumn, perDoc: PerDocument[]): EngineAnswer {
  const facts = perDoc.map(factOf);
  const ok = perDoc.filter((d) => d.status === 'SUCCESS');
  if (ok.length === 0) {
    const why = perDoc.find((d) => d.statusText)?.statusText ?? 'no document could be read';
    return { status: 'ERROR', statusText: why, facts };
  }
  const type = column.outputType;
  const found = ok.filter((d) => !d.empty);
  if (type === 'image' || type === 'image_list') {
    const regions = found.flatMap((d) => (Array.isArray(d.value) ? (d.value as Region[]) : []));
    const best = [...found].sort((a, b) => (b.confidence ?? 0) - (a.confidence ?? 0))[0];
    const value =
      type === 'image' ? (best && Array.isArray(best.value) ? best.value.slice(0, 1) : []) : regions;
    // Each region cites its page (2.4: citations for each succeeded answer).
    const citations =
      type === 'image' ? (best?.citations.slice(0, 1) ?? []) : found.flatMap((d) => d.citations);
    return {
      status: 'SUCCESS',
      value,
      citations,
      confidence: mean(found.map((d) => d.confidence ?? 0)),
      facts,
    };
  }
  if (found.length === 0) {
    return {
      status: 'SUCCESS',
      value: { type, value: null },
      citations: [],
      confidence: Math.min(...ok.map((d) => d.confidence ?? 0)),
      facts,
    };
  }
  if (type === 'list_scalar') {
    const seen = new Set<string>();
    const items: string[] = [];
    for (const d of found) {
      for (const item of (scalar(d.value) as string[] | null) ?? []) {
        if (!seen.has(key(item))) {
          seen.add(key(item));
          items.push(item);
        }
      }
    }
    return {
      status: 'SUCCESS',
      value: { type, value: items },
      citations: found.flatMap((d) => d.citations),
      confidence: mean(found.map((d) => d.confidence ?? 0)),
      facts,
    };
  }
  if (type === 'boolean') {
    const yes = found.filter((d) => scalar(d.value) === true);
    const chosen = yes.length ? yes : found;
    return {
      status: 'SUCCESS',
      value: { type, value: yes.length > 0 },
      citations: chosen.flatMap((d) => d.citations).slice(0, 5),
      confidence: Math.max(...chosen.map((d) => d.confidence ?? 0)),
      facts,
    };
  }
  const groups = new Map<string, PerDocument[]>();
  for (const d of found) {
    const k = key(scalar(d.value));
    groups.set(k, [...(groups.get(k) ?? []), d]);
  }
  const ranked = [...found].sort(
    (a, b) =>
      (b.doc.effectiveAt ?? Number.NEGATIVE_INFINITY) - (a.doc.effectiveAt ?? Number.NEGATIVE_INFINITY) ||
      Number(b.doc.isPrimary) - Number(a.doc.isPrimary) ||
      (b.confidence ?? 0) - (a.confidence ?? 0),
  );
  // A weak answer does not override a strong one just for being newer.
  const strongest = Math.max(...found.map((d) => d.confidence ?? 0));
  const winner = ranked.find((d) => (d.confidence ?? 0) >= strongest * 0.6) ?? ranked[0]!;
  const agreeing = groups.get(key(scalar(winner.value)))!;
  const agreement = agreeing.length / found.length;
  return {
    status: 'SUCCESS',
    value: winner.value!,
    citations: agreeing.flatMap((d) => d.citations),
    confidence: round(
      Math.min(1, (winner.confidence ?? 0) * (0.75 + 0.25 * agreement) + (agreeing.length > 1 ? 0.05 : 0)),
    ),
    facts,
  };
}

const round = (x: number) => Math.round(x * 1000) / 1000;
const mean = (xs: number[]) => (xs.length ? round(xs.reduce((a, b) => a + b, 0) / xs.length) : 0);
