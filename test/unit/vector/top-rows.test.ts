// The m best of many scores (src/vector/top-rows.ts), as both code passes keep their candidates.
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../src/core/mulberry32';
import { topIndices } from '../../../src/vector/top-rows';

const random = mulberry32(3);

describe('topIndices', () => {
  it('is the m best, best first, ties to the earlier index, from all rows or a subset', () => {
    const scores = Float32Array.from({ length: 1000 }, () => Math.round(random() * 100));
    const bySort = [...scores.keys()].sort((a, b) => scores[b]! - scores[a]! || a - b);
    expect([...topIndices(scores, 25)]).toEqual(bySort.slice(0, 25));
    expect([...topIndices(scores, 5000)]).toEqual(bySort);
    const among = [10, 20, 30, 40];
    expect([...topIndices(Float32Array.of(1, 9, 3, 9), 2, 4, among)]).toEqual([20, 40]);
    expect([...topIndices(scores, 0)]).toEqual([]);
  });
});
