import { describe, expect, it } from 'vitest';
import { answerRelevance, cosine } from '../../../src/core/ragas/answer-relevance';
import { ruleWriter, tableEmbedder } from './fakes';

describe('RAGAS answer relevance', () => {
  it('AR is the mean cosine between the real question and the generated ones', async () => {
    const writer = ruleWriter([['Generate a question for the given answer: answer: Paris is the capital.', '1. What is the capital of France?\nquestion 2: Which city is the capital?\n3. Is Paris big?']]);
    const embedder = tableEmbedder({
      'What is the French capital?': [2, 0], // not unit length on purpose
      'What is the capital of France?': [1, 0], // cos 1
      'Which city is the capital?': [0.6, 0.8], // cos 0.6
      'Is Paris big?': [0, 3], // cos 0
    });
    const ar = await answerRelevance('What is the French capital?', 'Paris is the capital.', { writer, embedder, models: { writer: 'W', embedder: 'E' } }, 3);
    expect(writer.prompts[0]).toContain('Write 3 different such questions');
    expect(ar.questions).toEqual(['What is the capital of France?', 'Which city is the capital?', 'Is Paris big?']);
    expect(ar.similarities.map((s) => Number(s.toFixed(6)))).toEqual([1, 0.6, 0]);
    expect(ar.score).toBeCloseTo(1.6 / 3, 6);
    expect(ar.models).toEqual(['writer: W', 'embedder: E']);
  });

  it('uses at most n questions and notes when fewer came back', async () => {
    const writer = ruleWriter([['Generate a question', 'Q1?\n']]);
    const embedder = tableEmbedder({ q: [1, 1], 'Q1?': [1, 0] });
    const ar = await answerRelevance('q', 'a', { writer, embedder, models: { writer: 'W' } }, 2);
    expect(ar.score).toBeCloseTo(Math.SQRT1_2, 6);
    expect(ar.note).toBe('asked for 2 questions, got 1');
  });

  it('cosine refuses vectors of different sizes', () => {
    expect(() => cosine(new Float32Array(2), new Float32Array(3))).toThrow(/2 and 3 dimensions/);
  });
});
