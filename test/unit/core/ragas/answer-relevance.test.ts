import { describe, expect, it } from 'vitest';
import { answerRelevance, cosine } from '../../../../src/core/ragas/answer-relevance';
import { ruleWriter, tableEmbedder } from './fakes';

describe('RAGAS answer relevance', () => {
  it('AR is the mean cosine between the real question and the generated ones', async () => {
    const writer = ruleWriter([
      [
        'answer: Paris is the capital.',
        '1. What is the capital of France?\nquestion 2: Which city is the capital?\n3. Is Paris big?\nnoncommittal: 0',
      ],
    ]);
    const embedder = tableEmbedder({
      'What is the French capital?': [2, 0], // not unit length on purpose
      'What is the capital of France?': [1, 0], // cos 1
      'Which city is the capital?': [0.6, 0.8], // cos 0.6
      'Is Paris big?': [0, 3], // cos 0
    });
    const ar = await answerRelevance(
      'What is the French capital?',
      'Paris is the capital.',
      { writer, embedder, models: { writer: 'W', embedder: 'E' } },
      3,
    );
    expect(writer.prompts[0]).toContain('Write 3 different such questions');
    expect(ar.questions).toEqual(['What is the capital of France?', 'Which city is the capital?', 'Is Paris big?']);
    expect(ar.similarities.map((s) => Number(s.toFixed(6)))).toEqual([1, 0.6, 0]);
    expect(ar.score).toBeCloseTo(1.6 / 3, 6);
    expect(ar.models).toEqual(['writer: W', 'embedder: E']);
    expect(ar.noncommittal).toBe(false);
    expect(ar.note).toBeUndefined();
  });

  it('scores an evasive answer 0 when the same generation judges it noncommittal (RAGAS library)', async () => {
    const writer = ruleWriter([
      [
        'answer: I do not know.',
        'What is the French capital?\nWhich city is the capital of France?\nWhere is the French government?\nnoncommittal: 1',
      ],
    ]);
    const embedder = tableEmbedder({
      'What is the French capital?': [1, 0],
      'Which city is the capital of France?': [1, 0.1],
      'Where is the French government?': [1, 0.3],
    });
    const ar = await answerRelevance(
      'What is the French capital?',
      'I do not know.',
      { writer, embedder, models: { writer: 'W' } },
      3,
    );
    expect(writer.prompts).toHaveLength(1);
    expect(writer.prompts[0]).toContain('Identify if answer is noncommittal');
    // The questions still come back and are measured, so the user sees why: the verdict zeroes the score.
    expect(ar.questions).toHaveLength(3);
    expect(Math.min(...ar.similarities)).toBeGreaterThan(0.9);
    expect(ar.noncommittal).toBe(true);
    expect(ar.score).toBe(0);
    expect(ar.note).toMatch(/noncommittal/);
  });

  it('reads the last verdict, never counts it as a question, and without one counts the answer committal', async () => {
    const embedder = tableEmbedder({ q: [1, 0], 'Q1?': [1, 0], 'Q2?': [0, 1] });
    const flipped = ruleWriter([['answer: a', 'Q1?\n**Noncommittal**: 1\nQ2?\nNoncommittal = 0']]);
    const ar = await answerRelevance('q', 'a', { writer: flipped, embedder, models: { writer: 'W' } }, 2);
    expect(ar.questions).toEqual(['Q1?', 'Q2?']);
    expect(ar.noncommittal).toBe(false);
    expect(ar.score).toBeCloseTo(0.5, 6);
    const silent = ruleWriter([['answer: a', 'Q1?\nQ2?']]);
    const ar2 = await answerRelevance('q', 'a', { writer: silent, embedder, models: { writer: 'W' } }, 2);
    expect(ar2.score).toBeCloseTo(0.5, 6);
    expect(ar2.note).toBe('the writer gave no noncommittal verdict; counted as committal');
  });

  it('uses at most n questions and notes when fewer came back', async () => {
    const writer = ruleWriter([['Generate a question', 'Q1?\n']]);
    const embedder = tableEmbedder({ q: [1, 1], 'Q1?': [1, 0] });
    const ar = await answerRelevance('q', 'a', { writer, embedder, models: { writer: 'W' } }, 2);
    expect(ar.score).toBeCloseTo(Math.SQRT1_2, 6);
    expect(ar.note).toMatch(/^asked for 2 questions, got 1/);
  });

  it('cosine refuses vectors of different sizes', () => {
    expect(() => cosine(new Float32Array(2), new Float32Array(3))).toThrow(/2 and 3 dimensions/);
  });
});
