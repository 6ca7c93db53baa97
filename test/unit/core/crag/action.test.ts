import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { classifyRetrieval } from '../../../../src/core/crag/action';
import { resolveCragSettings } from '../../../../src/core/crag/settings';

const U = 0.5;
const L = 0.05;
const eps = 1e-9;

describe('CRAG action thresholds', () => {
  it('is Correct only when some passage is strictly above the upper threshold', () => {
    expect(classifyRetrieval([U + eps], U, L)).toBe('correct');
    expect(classifyRetrieval([U], U, L)).toBe('ambiguous');
    expect(classifyRetrieval([U - eps], U, L)).toBe('ambiguous');
    expect(classifyRetrieval([0.01, 0.02, U + eps], U, L)).toBe('correct');
  });

  it('is Incorrect only when every passage is strictly below the lower threshold', () => {
    expect(classifyRetrieval([L - eps, 0], U, L)).toBe('incorrect');
    expect(classifyRetrieval([L - eps, L], U, L)).toBe('ambiguous');
    expect(classifyRetrieval([L + eps], U, L)).toBe('ambiguous');
  });

  it('treats an empty retrieval as Incorrect', () => {
    expect(classifyRetrieval([], U, L)).toBe('incorrect');
  });

  it('prefers Correct when lower equals upper and a score is above both', () => {
    expect(classifyRetrieval([0.7, 0.1], 0.5, 0.5)).toBe('correct');
    expect(classifyRetrieval([0.5], 0.5, 0.5)).toBe('ambiguous');
    expect(classifyRetrieval([0.4], 0.5, 0.5)).toBe('incorrect');
  });

  it('matches the paper’s definition for any scores', () => {
    const prob = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(fc.array(prob, { maxLength: 8 }), prob, prob, (scores, a, b) => {
        const [lower, upper] = a <= b ? [a, b] : [b, a];
        const action = classifyRetrieval(scores, upper, lower);
        const anyAbove = scores.some((s) => s > upper);
        const allBelow = scores.every((s) => s < lower);
        expect(action).toBe(anyAbove ? 'correct' : allBelow ? 'incorrect' : 'ambiguous');
      }),
    );
  });
});

describe('CRAG settings', () => {
  it('rejects a lower threshold above the upper one, naming both', () => {
    expect(() => resolveCragSettings({ upper: 0.3, lower: 0.6 })).toThrow(
      /"lower" \(0.6\) must not exceed "upper" \(0.3\)/,
    );
  });
  it('rejects thresholds outside [0, 1] and non-integer counts', () => {
    expect(() => resolveCragSettings({ upper: 1.5 })).toThrow(/"upper"/);
    expect(() => resolveCragSettings({ stripThreshold: Number.NaN })).toThrow(/"stripThreshold"/);
    expect(() => resolveCragSettings({ k: 0 })).toThrow(/"k"/);
  });
  it('keeps external search off by default', () => {
    expect(resolveCragSettings().externalEnabled).toBe(false);
  });
});
