import { describe, expect, it } from 'vitest';
import { rocAuc, withinQuestionAuc } from '../../../bench/critiques/auc';

describe("the critiques bench's ROC AUC", () => {
  it('is the chance a positive scores above a negative, ties counting half', () => {
    expect(rocAuc([0.9, 0.1], [true, false])).toBe(1);
    expect(rocAuc([0.1, 0.9], [true, false])).toBe(0);
    expect(rocAuc([0.5, 0.5, 0.2], [true, false, false])).toBe(0.75);
  });

  it('within a question, compares each question only with its own passages', () => {
    // Each question's answering passage is its best, but q2's scores all sit below q1's:
    // pooled, q1's negative outranks q2's positive; within each question the order is perfect.
    const pairs = [
      { question: 'q1', label: true },
      { question: 'q1', label: false },
      { question: 'q2', label: true },
      { question: 'q2', label: false },
    ];
    const scores = [0.9, 0.7, 0.4, 0.2];
    expect(
      rocAuc(
        scores,
        pairs.map((p) => p.label),
      ),
    ).toBe(0.75);
    expect(withinQuestionAuc(scores, pairs)).toBe(1);
    // One question ordered wrongly halves it; a question with no negative is not counted.
    expect(withinQuestionAuc([0.9, 0.7, 0.2, 0.4, 0.5], [...pairs, { question: 'q3', label: true }])).toBe(0.5);
  });
});
