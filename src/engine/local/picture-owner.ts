import { contentStems, stem } from '../text/tokenize.ts';
import type { Query } from './query.ts';

/** The stems of the possessors a question names ("applicant" of "the applicant's photo"). */
function ownersOf(query: Query): Set<string> {
  return new Set([...query.prompt.matchAll(/\b(\p{L}+)['’]s?(?=\s)/gu)].map((m) => stem(m[1]!)));
}

/**
 * Which of the question's words a caption shares: none, only the possessor's ("Signature of
 * applicant" for the applicant's photo), or the thing asked itself ("Affix photo").
 */
export function captionShares(caption: string, query: Query): 'none' | 'owner' | 'asked' {
  const shared = contentStems(caption).filter((t) => query.weights.has(t));
  if (shared.length === 0) return 'none';
  const owners = ownersOf(query);
  return shared.every((t) => owners.has(t)) ? 'owner' : 'asked';
}
