import { describe, expect, it } from 'vitest';
import { evaluateAnswer } from '../../../../src/core/ragas/evaluate';
import { containsCritic, ctx, ruleWriter, tableEmbedder } from './fakes';

describe('evaluateAnswer', () => {
  const writer = () =>
    ruleWriter([
      ['create one or more statements', 'Nolan directed it.'],
      ['Generate a question', 'Who directed it?'],
      ['Please extract', 'Nolan directed it.'],
    ]);
  const embedder = tableEmbedder({ 'Who directed Oppenheimer?': [1, 0], 'Who directed it?': [1, 0] });
  const input = {
    question: 'Who directed Oppenheimer?',
    answer: 'Nolan directed it.',
    contexts: [ctx('a', 'Nolan directed it. It is long.')],
  };

  it('computes all three metrics, each naming its models', async () => {
    const r = await evaluateAnswer(
      input,
      { writer: writer(), embedder, critic: containsCritic(), models: { writer: 'W', embedder: 'E', nli: 'N' } },
      { n: 1 },
    );
    expect(r.faithfulness.score).toBe(1);
    expect(r.answerRelevance.score).toBeCloseTo(1, 6);
    expect(r.contextRelevance.score).toBe(0.5);
    expect(r.faithfulness.models).toEqual(['writer: W', 'nli: N']);
    expect(r.answerRelevance.models).toEqual(['writer: W', 'embedder: E']);
  });

  it('is cancellable: an aborted run rejects and stops calling the writer', async () => {
    const ac = new AbortController();
    const w = writer();
    const slow = {
      write: async (p: string) => {
        const out = await w.write(p);
        ac.abort();
        return out;
      },
    };
    await expect(
      evaluateAnswer(input, { writer: slow, embedder, models: { writer: 'W' } }, { signal: ac.signal }),
    ).rejects.toThrow();
    expect(w.prompts).toHaveLength(1);
  });
});
