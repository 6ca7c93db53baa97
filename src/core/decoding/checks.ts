// What the decode loop checks of what the ports hand back: ports are the outside world (a model,
// a worker, a user's plug-in), so a malformed reply becomes a clear CoreInputError naming it.
import { CoreInputError } from '../errors';
import type { GeneratedSegment, RelProbs, ScoredPassage, SupProbs } from '../ports';
import { normaliseRel, normaliseSup, normaliseUse } from '../scores';

/** Runs `f`, prefixing any CoreInputError it throws with what was being checked. */
export function withContext<T>(what: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof CoreInputError) throw new CoreInputError(`${what}: ${e.message}`);
    throw e;
  }
}

export function checkSegment(s: GeneratedSegment, what: string): void {
  if (!s || typeof s.text !== 'string') throw new CoreInputError(`${what}: the text is missing.`);
  if (!Number.isInteger(s.tokenCount) || s.tokenCount < 0) {
    throw new CoreInputError(`${what}: token count must be a non-negative integer; got ${String(s.tokenCount)}.`);
  }
  if (s.logprob !== undefined && (!Number.isFinite(s.logprob) || s.logprob > 0)) {
    throw new CoreInputError(`${what}: log-probability must be a finite number ≤ 0; got ${String(s.logprob)}.`);
  }
  if (s.rel) withContext(what, () => normaliseRel(s.rel as RelProbs));
  if (s.sup) withContext(what, () => normaliseSup(s.sup as SupProbs));
  if (s.use) {
    if (!Array.isArray(s.use) || s.use.length !== 5) throw new CoreInputError(`${what}: ISUSE needs 5 probabilities.`);
    withContext(what, () => normaliseUse(s.use as [number, number, number, number, number]));
  }
}

export function checkSegments(segments: GeneratedSegment[], expected: number, depth: number): void {
  if (!Array.isArray(segments) || segments.length !== expected) {
    throw new CoreInputError(
      `The generator returned ${Array.isArray(segments) ? segments.length : 'no list of'} segments for ${expected} requests.`,
    );
  }
  segments.forEach((s, i) => checkSegment(s, `Generated segment ${i + 1} at depth ${depth}`));
}

export function checkPassages(passages: ScoredPassage[], from = 'retriever'): ScoredPassage[] {
  if (!Array.isArray(passages)) throw new CoreInputError(`The ${from} did not return a list of passages.`);
  for (const p of passages) {
    if (!p || typeof p.id !== 'string' || typeof p.text !== 'string' || typeof p.title !== 'string') {
      throw new CoreInputError(`The ${from} returned a passage without an id, title or text.`);
    }
  }
  return passages;
}

/** The evaluator answered one judgement per passage it was given, or its answer is unusable. */
export function checkJudgements(expected: number, ...lists: unknown[]): void {
  if (lists.some((xs) => !Array.isArray(xs) || xs.length !== expected)) {
    throw new CoreInputError(
      `The evaluator returned a different number of judgements than the ${expected} passages it was given.`,
    );
  }
}
