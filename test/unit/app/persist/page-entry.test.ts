import { describe, expect, it } from 'vitest';
import { readPageEntry, sameEntry, withPageEntry } from '../../../../src/app/persist/page-entry';

describe('the page entry kept in history.state', () => {
  it('reads back what was written, keeping the state’s other keys', () => {
    const state = withPageEntry({ other: 1 }, { thread: 't1', viewed: 'turn2' });
    expect(state.other).toBe(1);
    expect(readPageEntry(state)).toEqual({ thread: 't1', viewed: 'turn2' });
    expect(readPageEntry(withPageEntry(null, { thread: null, viewed: null }))).toEqual({ thread: null, viewed: null });
  });

  it('is none on a new visit, and only strings pass from an untrusted state', () => {
    for (const s of [null, undefined, 'x', 3, {}, { selfragOpen: null }]) expect(readPageEntry(s)).toBeNull();
    expect(readPageEntry({ selfragOpen: { thread: { evil: 1 }, viewed: 7 } })).toEqual({ thread: null, viewed: null });
    expect(readPageEntry({ selfragOpen: { thread: 'x'.repeat(201), viewed: '' } })).toEqual({
      thread: null,
      viewed: null,
    });
  });

  it('tells whether an entry is already kept', () => {
    expect(sameEntry(null, { thread: null, viewed: null })).toBe(false);
    expect(sameEntry({ thread: 'a', viewed: 'b' }, { thread: 'a', viewed: 'b' })).toBe(true);
    expect(sameEntry({ thread: 'a', viewed: 'b' }, { thread: 'a', viewed: 'c' })).toBe(false);
  });
});
