// Plain words for answers that have no segment to show, or only a refusal, so the answer
// area never leaves the reader guessing why.
import type { AnswerTree, Ranking } from '../../core/types';
import { withheldMessage } from './no-answer';

/** Why a finished decode has no chosen segment, or null when it has one or nothing was tried. */
export function emptyAnswerReason(tree: AnswerTree | null, ranking: Ranking | null): string | null {
  if (!tree || !ranking || ranking.best.length > 0) return null;
  const withheld = withheldMessage(ranking);
  if (withheld) return withheld;
  const roots = tree.candidates.filter((c) => c.parentId === null);
  if (roots.length === 0) return null;
  if (roots.every((c) => ranking.scored.get(c.id)?.pruned === 'hard-constraint')) {
    return (
      `No answer: the hard constraint dropped every first segment (all ${roots.length}), because the critique found ` +
      'none of them supported by its passage. Turn off "Hard constraint" in Tuning to see them; that needs no new answer.'
    );
  }
  return null;
}

/** True when Self-CRAG declined the whole answer: its first step abstained for lack of evidence. */
export function abstainedAtStart(ranking: Ranking | null): boolean {
  const first = ranking?.best[0]?.candidate;
  return first?.correction?.noEvidence === 'abstain';
}
