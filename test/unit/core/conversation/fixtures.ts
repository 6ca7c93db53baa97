// Small threads for the conversation tests: answer trees built by hand, two segments with citations.
import { DEFAULT_DECODE_SETTINGS } from '../../../../src/core/defaults';
import type { ScoredPassage } from '../../../../src/core/ports';
import type { AnswerTree, Candidate } from '../../../../src/core/types';
import { addTurn, emptyThread, type Thread, type Turn } from '../../../../src/core/conversation';

export const bees: ScoredPassage = {
  id: 'bees#0',
  docId: 'bees',
  title: 'Honeybees',
  index: 0,
  score: 1,
  text: 'Bees live in hives. Foragers collect nectar and evaporate it into honey over several days. Wax is made by young bees.',
};

export function candidate(
  id: string,
  parentId: string | null,
  depth: number,
  text: string,
  passage: ScoredPassage | null,
  full = 0.9,
): Candidate {
  return {
    id,
    parentId,
    depth,
    text,
    passage,
    retrieve: { probs: null, retrieved: passage !== null, reason: 'always' },
    rel: { relevant: 0.8, irrelevant: 0.2 },
    sup: { full, partial: 0.05, none: 0.95 - full },
    use: [0, 0, 0, 1, 0],
    fromGenerator: {},
    tokenCount: 8,
    done: depth === 1,
  };
}

export function tree(question: string): AnswerTree {
  return {
    question,
    settings: { ...DEFAULT_DECODE_SETTINGS },
    candidates: [
      candidate('a', null, 0, 'Foragers collect nectar and evaporate it into honey.', bees),
      candidate('b', null, 0, 'Honey comes from flowers.', bees, 0.1),
      candidate('c', 'a', 1, 'It takes several days.', bees),
    ],
  };
}

let clock = 1000;
export function turn(
  id: string,
  parentId: string | null,
  question: string,
  o: Partial<Turn> = {},
): Omit<Turn, 'children'> {
  clock += 1;
  return {
    id,
    parentId,
    question,
    rewrite: null,
    answer: tree(question),
    answerText: 'Foragers collect nectar and evaporate it into honey. It takes several days.',
    settings: { beamWidth: 2 },
    model: 'tiny-model',
    status: 'done',
    createdAt: clock,
    ...o,
  };
}

/** first → follow-up, and an edited version of the follow-up. */
export function sampleThread(): Thread {
  let t = emptyThread('t1', 1);
  t = addTurn(t, turn('q1', null, 'How do bees make honey?'), 2);
  t = addTurn(
    t,
    turn('q2', 'q1', 'How long does that take them?', { rewrite: 'How long does it take bees to make honey?' }),
    3,
  );
  t = addTurn(t, turn('q2b', 'q1', 'How long do they take?'), 4);
  return t;
}
