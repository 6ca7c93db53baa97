import { describe, expect, it } from 'vitest';
import {
  earlierAnswers,
  fitHistory,
  formatQuestionTurn,
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

  it("the answer-writing prompts' history is the earlier questions, fitted by what they take (issue 46)", () => {
    const turns = [0, 1, 2].map(ht);
    const h = fitHistory(turns, words('User: question 0') + 1, words, undefined, formatQuestionTurn);
    // One turn's question fits where its whole turn would not.
    expect(h.turns.map((t) => t.question)).toEqual(['question 2']);
    expect(historyText(h, formatQuestionTurn)).toBe('User: question 2');
    expect(historyText(fitHistory(turns, 10_000, words), formatQuestionTurn)).not.toContain('answer number');
  });

  it("hands the guard every earlier turn's whole answer, leaving out failed and empty ones", () => {
    const long = 'word '.repeat(400).trim();
    const path = [
      { ...turn('a', null, 'first'), answerText: long, children: [] },
      { ...turn('b', 'a', 'second'), status: 'failed', answerText: 'half written', children: [] },
      { ...turn('c', 'b', 'third'), answerText: '', children: [] },
      { ...turn('d', 'c', 'fourth'), answerText: 'Bees dry nectar.', children: [] },
    ] as Turn[];
    expect(earlierAnswers(path)).toEqual([long, 'Bees dry nectar.']);
    expect(earlierAnswers([])).toEqual([]);
  });

  it('evidence-only search joins the follow-up with the earlier questions, newest first', () => {
    expect(joinedQuery(['How do bees make honey?', 'Where do they live?'], 'How long does that take them?')).toBe(
      'How long does that take them? Where do they live? How do bees make honey?',
    );
    expect(joinedQuery([], 'Only question')).toBe('Only question');
    expect(joinedQuery(['a1', 'a2', 'a3', 'a4'], 'f', 2)).toBe('f a4 a3');
  });
});
