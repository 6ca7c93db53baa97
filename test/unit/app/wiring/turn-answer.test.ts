import { describe, expect, it } from 'vitest';
import type { Turn } from '../../../../src/core/conversation/thread';
import { initialAnswerState } from '../../../../src/app/state/answer';
import { answerOfTurn, turnPatch } from '../../../../src/app/wiring/turn-answer';

const turn = (more: Partial<Turn>): Turn => ({
  id: 't1',
  parentId: null,
  children: [],
  question: 'Where is the sextant?',
  rewrite: null,
  answer: null,
  answerText: '',
  settings: {},
  model: null,
  status: 'done',
  createdAt: 0,
  ...more,
});

describe('a turn searched while part of the library waited for its vectors', () => {
  it('keeps how much search by meaning reached, and shows it again when the turn is opened', () => {
    const patch = turnPatch({ ...initialAnswerState, status: 'done', coverage: { embedded: 4, total: 9 } });
    expect(patch.meaningCoverage).toEqual({ embedded: 4, total: 9 });
    expect(answerOfTurn(turn(patch)).coverage).toEqual({ embedded: 4, total: 9 });
    expect(turnPatch({ ...initialAnswerState, status: 'done' }).meaningCoverage).toBeUndefined();
  });

  it('drops a kept coverage that is not one (an imported thread may hold anything)', () => {
    const bad = { embedded: 10, total: 9 } as Turn['meaningCoverage'];
    expect(answerOfTurn(turn({ meaningCoverage: bad })).coverage).toBeUndefined();
  });
});
