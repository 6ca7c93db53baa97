import { describe, expect, it } from 'vitest';
import { mcnemarExact, paired } from '../../../bench/answers/paired';

describe("the accuracy table's paired comparison", () => {
  it("gives McNemar's exact two-sided p (binomial, p = 1/2, on the discordant pairs)", () => {
    // 0 against 5: 2 × (1/2)^5.
    expect(mcnemarExact(0, 5)).toBeCloseTo(0.0625, 10);
    // 1 against 9: 2 × (1 + 10) / 1024.
    expect(mcnemarExact(9, 1)).toBeCloseTo(22 / 1024, 10);
    // Even splits and no discordance are no evidence at all.
    expect(mcnemarExact(4, 4)).toBe(1);
    expect(mcnemarExact(0, 0)).toBe(1);
    // Symmetric in the two rows.
    expect(mcnemarExact(3, 12)).toBeCloseTo(mcnemarExact(12, 3), 12);
  });

  it('stays finite on a whole split (137 questions)', () => {
    const p = mcnemarExact(10, 127);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1e-20);
  });

  it('names the questions each row wins and loses, over the questions both answered', () => {
    const row = new Map([
      ['a', true],
      ['b', false],
      ['c', true],
      ['d', true],
    ]);
    const base = new Map([
      ['a', false],
      ['b', true],
      ['c', true],
      ['e', false],
    ]);
    const r = paired(row, base);
    expect(r.n).toBe(3);
    expect(r.wins).toEqual(['a']);
    expect(r.losses).toEqual(['b']);
    expect(r.p).toBe(1);
  });
});
