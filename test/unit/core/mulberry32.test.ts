import { describe, expect, it } from 'vitest';
import { mulberry32, mulberry32Words } from '../../../src/core/mulberry32';

describe('mulberry32', () => {
  it('gives the same stream for the same seed, and the [0, 1) stream is the words scaled', () => {
    const words = mulberry32Words(42);
    const unit = mulberry32(42);
    const again = mulberry32(42);
    for (let i = 0; i < 100; i++) {
      const w = words();
      const u = unit();
      expect(Number.isInteger(w) && w >= 0 && w < 2 ** 32).toBe(true);
      expect(u).toBe(w / 2 ** 32);
      expect(again()).toBe(u);
    }
  });

  it('keeps its published first values (stored rotations depend on them)', () => {
    const next = mulberry32Words(1);
    expect([next(), next(), next()]).toEqual([2693262067, 11749833, 2265367787]);
  });
});
