// What a candidate's badges show: the probabilities used for scoring (falling
// back to the generator's own when the critique source left a group unset),
// normalised by the core. A malformed group shows no badge rather than a wrong one.
import { isRel, isSup, isUse, normaliseRel, normaliseSup, normaliseUse } from '../../core/scores';
import type { RelProbs, SupProbs, UseProbs } from '../../core/ports';
import type { Candidate } from '../../core/types';

export type CandidateLike = Pick<Candidate, 'rel' | 'sup' | 'use' | 'fromGenerator'>;

export interface Critique {
  rel?: { probs: RelProbs; score: number };
  sup?: { probs: SupProbs; score: number };
  use?: { probs: UseProbs; score: number };
}

function safe<P>(
  p: P | undefined,
  norm: (p: P) => P,
  score: (p: P) => number,
): { probs: P; score: number } | undefined {
  if (!p) return undefined;
  try {
    return { probs: norm(p), score: score(p) };
  } catch {
    return undefined;
  }
}

export function relCritique(p: RelProbs | undefined) {
  return safe(p, normaliseRel, isRel);
}

export function critiqueOf(c: CandidateLike): Critique {
  return {
    rel: relCritique(c.rel ?? c.fromGenerator.rel),
    sup: safe(c.sup ?? c.fromGenerator.sup, normaliseSup, isSup),
    use: safe(c.use ?? c.fromGenerator.use, normaliseUse, isUse),
  };
}
