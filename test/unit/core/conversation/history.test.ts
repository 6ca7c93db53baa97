import { describe, expect, it } from 'vitest';
import {
  fitHistory,
  historyBudget,
  historyText,
  historyTurns,
  joinedQuery,
  MAX_ANSWER_CHARS,
} from '../../../../src/core/conversation';
import { turn } from './fixtures';
import type { Turn } from '../../../../src/core/conversation';

const words = (s: string) => s.split(/\s+/).filter(Boolean).length;
const ht = (i: number) => ({ question: `question ${i}`, answer: `answer number ${i} ${'x '.repeat(10)}` });

describe('history within a token budget', () => {
  it('keeps the newest turns and drops the oldest first, saying how many', () => {
    const turns = [0, 1, 2, 3, 4].map(ht);
    const one = words(`User: question 0\nAssistant: ${ht(0).answer}`) + 1;
    const h = fitHistory(turns, one * 2 + 1, words);
    expect(h.turns.map((t) => t.question)).toEqual(['question 3', 'question 4']);
    expect(h.dropped).toBe(3);
    expect(h.tokens).toBeLessThanOrEqual(one * 2 + 1);
    expect(historyText(h)).toMatch(/^User: question 3\nAssistant: answer number 3/);
  });

  it('keeps nothing when not even the newest turn fits, and everything when all fit', () => {
    const turns = [0, 1].map(ht);
    expect(fitHistory(turns, 3, words)).toMatchObject({ turns: [], dropped: 2 });
    expect(fitHistory(turns, 10_000, words).dropped).toBe(0);
    expect(fitHistory(turns.concat([2, 3, 4, 5, 6, 7].map(ht)), 10_000, words, 6).dropped).toBe(2);
  });

  it('gives history a quarter of the window at most, and nothing when the decode needs it all', () => {
    expect(historyBudget(4096)).toBe(1024);
    expect(historyBudget(2048)).toBe(512);
    expect(historyBudget(1024)).toBe(0);
  });

  it('leaves out failed turns and shortens long answers', () => {
    const path = [
      { ...turn('a', null, 'first'), answerText: 'word '.repeat(400), children: [] },
      { ...turn('b', 'a', 'second'), status: 'failed', children: [] },
    ] as Turn[];
    const h = historyTurns(path);
    expect(h).toHaveLength(1);
    expect(h[0]!.answer.length).toBeLessThanOrEqual(MAX_ANSWER_CHARS + 1);
  });

  it('evidence-only search joins the follow-up with the earlier questions, newest first', () => {
    expect(joinedQuery(['How do bees make honey?', 'Where do they live?'], 'How long does that take them?')).toBe(
      'How long does that take them? Where do they live? How do bees make honey?',
    );
    expect(joinedQuery([], 'Only question')).toBe('Only question');
    expect(joinedQuery(['a1', 'a2', 'a3', 'a4'], 'f', 2)).toBe('f a4 a3');
  });
});
