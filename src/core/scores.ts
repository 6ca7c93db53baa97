// Critique scores of Self-RAG Sec. 3.3, Eq. 4. Every group is normalised over its own
// alternatives only and works on probabilities; the reference short-form script divides
// raw log-probs for the retrieve decision, which is a bug we do not copy.
import { CoreInputError } from './errors';
import { validateWeights } from './settings';
import type { RelProbs, RetrieveProbs, SupProbs, UseProbs } from './ports';
import type { Candidate, Weights } from './types';

/** ISUSE maps [Utility:1..5] to these values. */
export const UTILITY_VALUES = [-1, -0.5, 0, 0.5, 1] as const;

/**
 * Checks a group and returns its values divided by their sum. Dividing by the largest
 * value first keeps huge or tiny (but valid) probabilities from overflowing the sum.
 */
export function normaliseGroup(group: string, values: readonly number[]): number[] {
  for (const v of values) {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
      throw new CoreInputError(
        `${group} probabilities must be finite, non-negative numbers; got [${values.join(', ')}].`,
      );
    }
  }
  const max = Math.max(...values);
  if (!(max > 0)) {
    throw new CoreInputError(
      `${group} probabilities are all zero, so the group says nothing; a generator that cannot read a slot must leave the group out (and set 'problem').`,
    );
  }
  const scaled = values.map((v) => v / max);
  const sum = scaled.reduce((a, b) => a + b, 0);
  return scaled.map((v) => v / sum);
}

const rel = (p: RelProbs) => normaliseGroup('ISREL', [p.relevant, p.irrelevant]);
const sup = (p: SupProbs) => normaliseGroup('ISSUP', [p.full, p.partial, p.none]);
const use = (p: UseProbs) => normaliseGroup('ISUSE', p);

export const normaliseRel = (p: RelProbs): RelProbs => {
  const [relevant = 0, irrelevant = 0] = rel(p);
  return { relevant, irrelevant };
};
export const normaliseSup = (p: SupProbs): SupProbs => {
  const [full = 0, partial = 0, none = 0] = sup(p);
  return { full, partial, none };
};
export const normaliseUse = (p: UseProbs): UseProbs => {
  const [u1 = 0, u2 = 0, u3 = 0, u4 = 0, u5 = 0] = use(p);
  return [u1, u2, u3, u4, u5];
};

/** p(Relevant) normalised over {Relevant, Irrelevant}: 0..1. */
export function isRel(p: RelProbs): number {
  return normaliseRel(p).relevant;
}

/** (p(Fully) + 0.5 · p(Partially)) over all three support tokens: 0..1. */
export function isSup(p: SupProbs): number {
  const n = normaliseSup(p);
  return n.full + 0.5 * n.partial;
}

/** Expected utility with [Utility:1..5] ↦ (−1, −0.5, 0, 0.5, 1): −1..1. */
export function isUse(p: UseProbs): number {
  return normaliseUse(p).reduce((acc, q, i) => acc + q * (UTILITY_VALUES[i] ?? 0), 0);
}

/**
 * p([Retrieval]) / (p([Retrieval]) + p([No Retrieval])). `[Continue to Use Evidence]` is not
 * part of this ratio (DESIGN.md); it is validated here and decided on in the decode loop.
 */
export function retrieveProbability(p: RetrieveProbs): number {
  if (p.continueEvidence !== undefined) {
    normaliseGroup('Retrieve', [p.retrieval, p.noRetrieval, p.continueEvidence]);
  }
  const [yes = 0] = normaliseGroup('Retrieve ([Retrieval] vs [No Retrieval])', [p.retrieval, p.noRetrieval]);
  return yes;
}

/**
 * The reference's sequence score (Eq. 3's p(y_t | x, d, y_<t), length-normalised):
 * exp(cumulative log-prob / max(tokens, 1)), 0..1. An empty segment has probability
 * exp(0) = 1, as in the reference, not 0: no token was unlikely.
 *
 * Its weight is 0 by default (DEFAULT_RANK_SETTINGS): the reference's long-form beam search
 * never adds it (run_long_form_static.py accepts --use_seqscore but does not pass it on to the
 * step that scores segments), and in prompted mode the log-probs are taken under the form's
 * grammar, so they measure how well the model fits the form as much as the answer.
 */
export function sequenceScore(logprob: number, tokenCount: number): number {
  if (!Number.isFinite(logprob) || logprob > 0) {
    throw new CoreInputError(`A segment's log-probability must be a finite number ≤ 0; got ${logprob}.`);
  }
  if (!Number.isInteger(tokenCount) || tokenCount < 0) {
    throw new CoreInputError(`A segment's token count must be a non-negative integer; got ${tokenCount}.`);
  }
  return Math.exp(logprob / Math.max(tokenCount, 1));
}

export type Scorable = Pick<Candidate, 'rel' | 'sup' | 'use' | 'logprob' | 'tokenCount'>;

/**
 * S = w_rel·ISREL + w_sup·ISSUP + w_use·ISUSE (+ w_seq·exp(mean log-prob)).
 *
 * A group the candidate does not have contributes 0, as in the reference. So a segment
 * written without retrieval (ISUSE only) scores within ±w_use, while one written from a
 * passage can reach w_rel + w_sup + w_use: where both compete in one beam level, evidence
 * that is judged relevant and supporting wins, which is what a grounded answer wants.
 */
export function segmentScore(c: Scorable, weights: Weights): number {
  validateWeights(weights);
  let s = 0;
  if (c.rel) s += weights.rel * isRel(c.rel);
  if (c.sup) s += weights.sup * isSup(c.sup);
  if (c.use) s += weights.use * isUse(c.use);
  if (weights.seq !== 0 && c.logprob !== undefined) s += weights.seq * sequenceScore(c.logprob, c.tokenCount);
  return s;
}

/** The hard constraint: the most likely support token is [No support / Contradictory]. */
export function isUnsupported(p: SupProbs): boolean {
  const n = normaliseSup(p);
  return n.none > n.full && n.none > n.partial;
}
