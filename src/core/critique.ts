// Where a candidate's ISREL / ISSUP come from: the generator's own reflection tokens, the
// evaluator (cross-encoder, NLI), or a blend. Blending mixes NORMALISED groups: raw
// probabilities from two models live on different scales (a generator reads a slot over
// its few alternatives, a classifier softmaxes), so mixing them raw would let one dominate.
import { normaliseRel, normaliseSup } from './scores';
import type { RelProbs, ResolvedCritiqueSource, SupProbs } from './ports';

function mix<T extends object>(a: T, b: T, weightOfB: number): T {
  const out = {} as Record<string, number>;
  for (const key of Object.keys(a) as (keyof T & string)[]) {
    out[key] = (1 - weightOfB) * (a[key] as number) + weightOfB * (b[key] as number);
  }
  return out as T;
}

/** One rule for every group the evaluator can supply: pick a source, or mix the normalised groups. */
function combiner<T extends object>(normalise: (p: T) => T) {
  return (
    source: ResolvedCritiqueSource,
    blend: number,
    fromGenerator: T | undefined,
    fromEvaluator: T | undefined,
  ): T | undefined => {
    if (source === 'generator') return fromGenerator;
    if (source === 'evaluator' || !fromGenerator) return fromEvaluator ?? fromGenerator;
    if (!fromEvaluator) return fromGenerator;
    return mix(normalise(fromGenerator), normalise(fromEvaluator), blend);
  };
}

export const combineRel = combiner<RelProbs>(normaliseRel);
export const combineSup = combiner<SupProbs>(normaliseSup);
