// Which probabilities a candidate shows: the ones used for scoring, falling back
// to the generator's own when the critique source left a group unset.
import type { RelProbs, SupProbs, UseProbs } from '../core/ports';
import type { Candidate } from '../core/types';

export type CandidateLike = Pick<Candidate, 'rel' | 'sup' | 'use' | 'fromGenerator'>;

export function critiqueOf(c: CandidateLike): { rel?: RelProbs; sup?: SupProbs; use?: UseProbs } {
  return {
    rel: c.rel ?? c.fromGenerator.rel,
    sup: c.sup ?? c.fromGenerator.sup,
    use: c.use ?? c.fromGenerator.use,
  };
}
