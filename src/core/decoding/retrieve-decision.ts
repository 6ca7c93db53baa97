// Algorithm 1, line 1: before each segment the generator predicts whether to retrieve. Adaptive
// mode thresholds p([Retrieval]) (δ, default 0.2); 'always' and 'never' skip the call.
import { retrieveProbability, normaliseGroup } from '../scores';
import type { RetrieveProbs } from '../ports';
import type { Candidate } from '../types';
import { withContext } from './checks';
import type { DecodeContext } from './context';

export type RetrievalChoice = 'retrieve' | 'no' | 'continue';

export interface RetrievalDecision {
  choice: RetrievalChoice;
  /** The generator's probabilities (adaptive mode only). */
  probs: RetrieveProbs | null;
}

export async function decideRetrieval(
  ctx: DecodeContext,
  parent: Candidate | null,
  previous: string[],
): Promise<RetrievalDecision> {
  const { settings } = ctx;
  if (settings.mode !== 'adaptive') return { choice: settings.mode === 'always' ? 'retrieve' : 'no', probs: null };
  ctx.checkpoint();
  const probs = await ctx.ports.generator.decideRetrieval({ question: ctx.question, previous, signal: ctx.signal });
  ctx.checkpoint();
  return { choice: choose(probs, !!parent?.passage, settings.threshold), probs };
}

/**
 * Table 1: "continue" keeps using the evidence already in hand. It needs a passage on the parent;
 * otherwise the threshold on [Retrieval] vs [No Retrieval] decides. Checked first: a native model
 * sure to continue leaves the other two outside its top 5 (both 0), which the threshold cannot divide.
 */
export function choose(probs: RetrieveProbs, parentHasPassage: boolean, threshold: number): RetrievalChoice {
  const cont = probs.continueEvidence;
  const check = (xs: number[]) => withContext('Retrieval decision', () => normaliseGroup('Retrieve', xs));
  if (parentHasPassage && cont !== undefined && cont > probs.retrieval && cont > probs.noRetrieval) {
    check([probs.retrieval, probs.noRetrieval, cont]);
    return 'continue';
  }
  if (cont !== undefined && cont > 0 && probs.retrieval === 0 && probs.noRetrieval === 0) {
    check([0, 0, cont]);
    return 'no'; // continuing without evidence in hand: go on without retrieving
  }
  const p = withContext('Retrieval decision', () => retrieveProbability(probs));
  return p > threshold ? 'retrieve' : 'no';
}
