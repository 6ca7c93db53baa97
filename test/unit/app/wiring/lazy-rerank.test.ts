// The re-rank loads beside the first paint (app/wiring/lazy-rerank.ts): once `ready` has settled it is
// the core's own rerank, and main.tsx has the decode and the kept threads wait for `ready`.
import { describe, expect, it } from 'vitest';
import { lazyRerank } from '../../../../src/app/wiring/lazy-rerank';
import type { RerankFn } from '../../../../src/app/wiring/controller';
import type { AnswerTree, RankSettings, Ranking } from '../../../../src/core/types';

const tree = { candidates: [] } as unknown as AnswerTree;
const rank = {} as RankSettings;
const ranking = { path: [] } as unknown as Ranking;

describe('lazyRerank', () => {
  it('is the loaded rerank once ready, called with the same tree and weights', async () => {
    const calls: unknown[][] = [];
    const rerank: RerankFn = (...args) => {
      calls.push(args);
      return ranking;
    };
    const lazy = lazyRerank(async () => ({ rerank }));
    await lazy.ready;
    expect(lazy.rerank(tree, rank)).toBe(ranking);
    expect(calls).toEqual([[tree, rank]]);
  });

  it('throws, rather than guess a ranking, when asked before the module is here', () => {
    const lazy = lazyRerank(() => new Promise(() => {}));
    expect(() => lazy.rerank(tree, rank)).toThrow(/not loaded yet/);
  });

  it('says when the module could not be loaded, and a failure nobody waits for is not unhandled', async () => {
    await expect(lazyRerank(() => Promise.reject(new TypeError('Failed to fetch'))).ready).rejects.toThrow(
      'Failed to fetch',
    );
    // Vite's preload helper resolves a failed file to nothing once the page offers a reload.
    const stale = lazyRerank(() => Promise.resolve(undefined as unknown as { rerank: RerankFn }));
    await expect(stale.ready).rejects.toThrow('The re-rank could not be loaded.');
    lazyRerank(() => Promise.reject(new Error('nobody waits')));
    await new Promise((r) => setTimeout(r, 0));
  });
});
