// When every finished path ends in a candidate that is not an answer (core/types.ts, Withheld),
// the core's ranking has no chosen segment and names the reasons. The page then says, in the
// reader's words, that the model could not answer from these passages and why, shows the passages
// it was given (as evidence-only mode shows passages), and keeps what it wrote out of sight unless
// asked: never as if it were the answer.
import type { RelProbs, ScoredPassage } from '../../core/ports';
import type { AnswerTree, Candidate, Ranking, Withheld } from '../../core/types';

type Reason = Withheld['reason'];

/** One short clause a reason says, after "the model could not answer from these passages:". */
const WHY: Record<Reason, string> = {
  'form-text': 'it only repeated its instructions',
  repeat: 'it only repeated what the answer already said',
  'earlier-answer': 'it only repeated an earlier answer of this conversation',
  declined: 'it said the passages do not answer this',
  'cut-off': 'it was cut off before it finished a sentence',
  unread: 'its checks of what it wrote could not be read',
};
const ORDER: readonly Reason[] = ['declined', 'form-text', 'repeat', 'earlier-answer', 'cut-off', 'unread'];

/** The reasons as one clause: "it only repeated its instructions, and it was cut off …". */
export function withheldWhy(reasons: readonly Reason[]): string {
  const known = ORDER.filter((r) => reasons.includes(r));
  const parts = known.map((r) => WHY[r]);
  if (parts.length === 0) return 'nothing it wrote was an answer';
  if (parts.length === 1) return parts[0]!;
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/** The reader's words for a decode with no answer because nothing written was one, or null when that is not the case. */
export function withheldMessage(ranking: Ranking | null): string | null {
  if (!ranking || ranking.best.length > 0 || !ranking.withheld) return null;
  return `No answer: the model could not answer from these passages (${withheldWhy(ranking.withheld)}).`;
}

/** A candidate that is not an answer, with why, in the page's words. */
export interface WithheldCandidate {
  candidate: Candidate;
  reason: Reason;
  detail: string;
}

export interface NoAnswer {
  message: string;
  reasons: Reason[];
  /** The passages the candidates were written from, first retrieved first, each once. */
  passages: { passage: ScoredPassage; rel: RelProbs | null }[];
  /** What the model wrote instead, for the reader who asks (folded away on the page). */
  written: WithheldCandidate[];
}

/** Everything the page shows for an answer that has none because nothing written was one; null otherwise. */
export function noAnswerOf(tree: AnswerTree | null, ranking: Ranking | null): NoAnswer | null {
  const message = withheldMessage(ranking);
  if (!message || !tree || !ranking) return null;
  const written = tree.candidates.flatMap((c) =>
    c.withheld ? [{ candidate: c, reason: c.withheld.reason, detail: c.withheld.detail }] : [],
  );
  const passages = new Map<string, { passage: ScoredPassage; rel: RelProbs | null }>();
  for (const c of tree.candidates) {
    if (!c.passage || passages.has(c.passage.id)) continue;
    passages.set(c.passage.id, {
      passage: c.passage,
      rel: c.rel ?? c.fromEvaluator?.rel ?? c.fromGenerator.rel ?? null,
    });
  }
  return { message, reasons: ranking.withheld ?? [], passages: [...passages.values()], written };
}

/** The label a withheld candidate carries where candidates are listed ("Why this segment", the beam tree). */
export function withheldLabel(c: Pick<Candidate, 'withheld'>): string | null {
  return c.withheld ? `Not an answer: ${c.withheld.detail}` : null;
}
