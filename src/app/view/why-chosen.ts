// Why "Why this segment" shows the candidate it shows as chosen. The answer is the best finished
// path (the sum over its segments), not the best segment at each step, so the chosen candidate can
// stand below a sibling with a higher segment score: each row says what became of it.
import type { ScoredCandidate } from '../../core/types';

const score = (n: number) => (Number.isFinite(n) ? n.toFixed(3) : '–');

/** The sentence above the table: how the chosen candidate was chosen. */
export function whyChosen(chosen: ScoredCandidate | undefined): string {
  if (!chosen) return 'No candidate at this step is on the answer shown.';
  return (
    `Chosen because it lies on the path of the best finished answer (path score ${score(chosen.pathScore)}): ` +
    'the answer is the best whole path, so a candidate with a higher segment score can lose to it.'
  );
}

/** What became of one candidate at the step. */
export function whyRow(s: ScoredCandidate | undefined, chosenId: string): string {
  if (!s) return 'not scored';
  if (s.candidate.id === chosenId) return 'kept: on the best finished answer’s path';
  if (s.pruned) return `dropped (${s.pruned})`;
  if (!s.inBeam) return 'not kept: the beam held better paths';
  return 'kept, but the best finished answer does not run through it';
}
