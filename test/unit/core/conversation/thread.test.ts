import { describe, expect, it } from 'vitest';
import {
  activePath,
  addTurn,
  ancestors,
  emptyThread,
  selectTurn,
  siblingPosition,
  stepSibling,
  titleFrom,
  updateTurn,
} from '../../../../src/core/conversation';
import { sampleThread, turn } from './fixtures';

describe('a thread is a tree of turns', () => {
  it('titles an untitled thread from its first question, shortened at a word', () => {
    let t = emptyThread('t', 0);
    t = addTurn(t, turn('q1', null, 'How do bees make honey?'), 1);
    expect(t.title).toBe('How do bees make honey?');
    const long = titleFrom(`${'word '.repeat(40)}end`);
    expect(long.length).toBeLessThanOrEqual(81);
    expect(long.endsWith('…')).toBe(true);
    expect(titleFrom('   ')).toBe('New thread');
  });

  it('keeps both versions when a question is edited and shows the newest', () => {
    const t = sampleThread();
    expect(t.turns.q1!.children).toEqual(['q2', 'q2b']);
    expect(activePath(t).map((x) => x.id)).toEqual(['q1', 'q2b']);
    expect(siblingPosition(t, 'q2b')).toEqual({ index: 2, count: 2 });
  });

  it('steps between versions (‹ 1/2 ›) and the path below follows the version shown', () => {
    let t = sampleThread();
    t = addTurn(t, turn('q3', 'q2b', 'And wax?'), 5);
    t = stepSibling(t, 'q2b', -1);
    expect(activePath(t).map((x) => x.id)).toEqual(['q1', 'q2']);
    expect(stepSibling(t, 'q2', -1)).toBe(t); // nothing before the first version
    t = stepSibling(t, 'q2', 1);
    expect(activePath(t).map((x) => x.id)).toEqual(['q1', 'q2b', 'q3']);
  });

  it('selecting a deep turn selects its whole branch', () => {
    let t = sampleThread();
    t = addTurn(t, turn('q3', 'q2', 'And wax?'), 5);
    t = stepSibling(t, 'q2', 1);
    expect(activePath(t).map((x) => x.id)).toEqual(['q1', 'q2b']);
    t = selectTurn(t, 'q3');
    expect(activePath(t).map((x) => x.id)).toEqual(['q1', 'q2', 'q3']);
    expect(ancestors(t, 'q3').map((x) => x.id)).toEqual(['q1', 'q2']);
  });

  it('refuses a turn whose parent is not in the thread, or an id used twice', () => {
    const t = sampleThread();
    expect(() => addTurn(t, turn('x', 'nope', 'q'), 9)).toThrow(/no parent/);
    expect(() => addTurn(t, turn('q1', null, 'q'), 9)).toThrow(/already exists/);
  });

  it('updates a turn in place without touching the tree', () => {
    const t = updateTurn(sampleThread(), 'q2', { status: 'stopped', answerText: 'part' }, 10);
    expect(t.turns.q2!.status).toBe('stopped');
    expect(t.turns.q2!.children).toEqual([]);
    expect(t.updatedAt).toBe(10);
    expect(updateTurn(t, 'missing', { status: 'done' }, 11)).toBe(t);
  });
});
