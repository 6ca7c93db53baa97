// The store every page store is built on: React repaints from its notifications, so a set
// that is not announced, or an unsubscribed panel still called, shows the user stale state.
import { describe, expect, it } from 'vitest';
import { createStore } from '../../../../src/app/state/store';
import { createStatusStore } from '../../../../src/app/state/worker-status';

describe('createStore', () => {
  it('takes a value or an update of the current one, and tells each subscriber after the change', () => {
    const store = createStore({ n: 1, label: 'a' });
    const seen: number[] = [];
    const stop = store.subscribe(() => seen.push(store.get().n));
    store.set({ n: 2, label: 'b' });
    store.set((s) => ({ ...s, n: s.n + 10 }));
    expect(store.get()).toEqual({ n: 12, label: 'b' });
    expect(seen).toEqual([2, 12]);
    stop();
    store.set({ n: 0, label: 'c' });
    expect(seen).toEqual([2, 12]);
  });

  it('gives a new object per change, so a reader comparing snapshots sees it', () => {
    const status = createStatusStore();
    const before = status.get();
    status.update('generator', { state: 'loading' });
    expect(status.get()).not.toBe(before);
    expect(before.generator.state).toBe('idle');
    expect(status.get().generator.state).toBe('loading');
    expect(status.get().evaluator).toBe(before.evaluator);
  });
});
