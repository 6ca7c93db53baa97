import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CoreInputError } from '../../../src/core/errors';
import type { RelProbs, SupProbs, UseProbs } from '../../../src/core/ports';
import {
  isRel,
  isSup,
  isUnsupported,
  isUse,
  retrieveProbability,
  segmentScore,
  sequenceScore,
} from '../../../src/core/scores';
import { DEFAULT_RANK_SETTINGS } from '../../../src/core/defaults';

const W = DEFAULT_RANK_SETTINGS.weights;

describe('critique scores, against hand-computed values', () => {
  it('ISREL is p(Relevant) over the relevance group', () => {
    expect(isRel({ relevant: 3, irrelevant: 1 })).toBeCloseTo(0.75, 12);
    expect(isRel({ relevant: 0, irrelevant: 0.4 })).toBe(0);
  });

  it('ISSUP counts partial support as half', () => {
    // (2 + 0.5·1) / (2 + 1 + 1)
    expect(isSup({ full: 2, partial: 1, none: 1 })).toBeCloseTo(0.625, 12);
    expect(isSup({ full: 0, partial: 1, none: 0 })).toBeCloseTo(0.5, 12);
  });

  it('ISUSE maps utility 1..5 to −1, −0.5, 0, 0.5, 1', () => {
    // (−1·1 + 1·3) / 4
    expect(isUse([1, 0, 0, 0, 3])).toBeCloseTo(0.5, 12);
    expect(isUse([0, 2, 0, 0, 0])).toBeCloseTo(-0.5, 12);
    expect(isUse([1, 1, 1, 1, 1])).toBeCloseTo(0, 12);
  });

  it('retrieve probability is [Retrieval] against [No Retrieval], from probabilities not log-probs', () => {
    expect(retrieveProbability({ retrieval: 1, noRetrieval: 4 })).toBeCloseTo(0.2, 12);
    // [Continue to Use Evidence] is not part of the ratio.
    expect(retrieveProbability({ retrieval: 0.3, noRetrieval: 0.1, continueEvidence: 0.6 })).toBeCloseTo(0.75, 12);
  });

  it('segment score is the weighted sum 1.0·ISREL + 1.0·ISSUP + 0.5·ISUSE by default', () => {
    const c = {
      rel: { relevant: 3, irrelevant: 1 },
      sup: { full: 2, partial: 1, none: 1 },
      use: [1, 0, 0, 0, 3] as UseProbs,
      tokenCount: 4,
    };
    expect(segmentScore(c, W)).toBeCloseTo(0.75 + 0.625 + 0.25, 12);
    expect(segmentScore(c, { rel: 2, sup: 0, use: 1, seq: 0 })).toBeCloseTo(1.5 + 0.5, 12);
  });

  it('adds the sequence likelihood exp(mean log-prob) only when its weight is set', () => {
    const c = { use: [0, 0, 1, 0, 0] as UseProbs, logprob: -2, tokenCount: 4 };
    expect(segmentScore(c, W)).toBe(0);
    expect(segmentScore(c, { ...W, seq: 1 })).toBeCloseTo(Math.exp(-0.5), 12);
  });

  it("gives an empty segment the reference's exp(0) = 1, not 0", () => {
    expect(sequenceScore(0, 0)).toBe(1);
    expect(segmentScore({ tokenCount: 0, logprob: 0 }, { ...W, seq: 0.5 })).toBe(0.5);
  });

  it('scores a segment written without retrieval on utility alone', () => {
    expect(segmentScore({ use: [0, 0, 0, 0, 1], tokenCount: 3 }, W)).toBeCloseTo(0.5, 12);
  });

  it('knows when [No support / Contradictory] is the most likely support token', () => {
    expect(isUnsupported({ full: 0.2, partial: 0.3, none: 0.5 })).toBe(true);
    expect(isUnsupported({ full: 0.4, partial: 0.2, none: 0.4 })).toBe(false);
  });
});

describe('bad probabilities get a clear error', () => {
  const cases: [string, () => unknown, RegExp][] = [
    ['NaN', () => isRel({ relevant: NaN, irrelevant: 1 }), /ISREL .*finite, non-negative/],
    ['negative', () => isSup({ full: -0.1, partial: 0.5, none: 0.5 }), /ISSUP .*finite, non-negative.*-0\.1/],
    ['infinite', () => isUse([0, 0, Infinity, 0, 0]), /ISUSE .*finite/],
    ['all zero', () => isRel({ relevant: 0, irrelevant: 0 }), /ISREL probabilities are all zero/],
    ['all-zero retrieve', () => retrieveProbability({ retrieval: 0, noRetrieval: 0 }), /Retrieve.*all zero/],
    ['positive log-prob', () => sequenceScore(0.5, 3), /log-probability/],
    ['NaN weight', () => segmentScore({ tokenCount: 1 }, { ...W, use: NaN }), /Weight 'use'/],
  ];
  it.each(cases)('%s', (_name, f, message) => {
    expect(f).toThrow(CoreInputError);
    expect(f).toThrow(message);
  });
});

const prob = fc.double({ min: 0, max: 1, noNaN: true });
// Below ~1e-300 a scaled value underflows to 0: a limit of floating point, not of the formula.
const nonZero = <T>(arb: fc.Arbitrary<T>, values: (t: T) => number[]) =>
  arb.filter((t) => values(t).some((v) => v > 1e-300));
const relArb = nonZero(fc.record({ relevant: prob, irrelevant: prob }), (p: RelProbs) => [p.relevant, p.irrelevant]);
const supArb = nonZero(fc.record({ full: prob, partial: prob, none: prob }), (p: SupProbs) => [
  p.full,
  p.partial,
  p.none,
]);
const useArb = nonZero(fc.tuple(prob, prob, prob, prob, prob), (p) => p) as fc.Arbitrary<UseProbs>;
const scale = fc.double({ min: 1e-6, max: 1e6, noNaN: true });

describe('score invariants (property tests)', () => {
  it('every score stays within its range for any valid probabilities', () => {
    fc.assert(
      fc.property(relArb, supArb, useArb, (rel, sup, use) => {
        const r = isRel(rel);
        const s = isSup(sup);
        const u = isUse(use);
        expect(r).toBeGreaterThanOrEqual(0);
        expect(r).toBeLessThanOrEqual(1);
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(1);
        expect(u).toBeGreaterThanOrEqual(-1);
        expect(u).toBeLessThanOrEqual(1);
        const total = segmentScore({ rel, sup, use, tokenCount: 1 }, W);
        expect(total).toBeGreaterThanOrEqual(-0.5 - 1e-12);
        expect(total).toBeLessThanOrEqual(2.5 + 1e-12);
        const p = retrieveProbability({ retrieval: rel.relevant, noRetrieval: rel.irrelevant });
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('scaling a group leaves its normalised score unchanged', () => {
    fc.assert(
      fc.property(relArb, supArb, useArb, scale, (rel, sup, use, k) => {
        expect(isRel({ relevant: rel.relevant * k, irrelevant: rel.irrelevant * k })).toBeCloseTo(isRel(rel), 9);
        expect(isSup({ full: sup.full * k, partial: sup.partial * k, none: sup.none * k })).toBeCloseTo(isSup(sup), 9);
        expect(isUse(use.map((v) => v * k) as UseProbs)).toBeCloseTo(isUse(use), 9);
      }),
    );
  });
});
