// RAGAS through the real transformers.js with the tiny generated models, whose behaviour is
// known exactly (scripts/tiny-models/graphs.ts), so every expected value is computed by hand:
// - NLI: f = share of the hypothesis' content words found in the premise, m = one-sided
//   negation; logits entailment 6f − 3 − 8mf, neutral 0, contradiction 8mf − 3.
// - embedder: mean-pooled, normalised hashed bag of words; content words weigh ±1 and stop
//   words ±0.2 (a word always has the same sign), punctuation is [UNK] and weighs 0.
import { describe, expect, it } from 'vitest';
import type { Critic, Writer } from '../../../../src/core/ports';
import { answerRelevance } from '../../../../src/core/ragas/answer-relevance';
import { faithfulness } from '../../../../src/core/ragas/faithfulness';
import { createEmbedder } from '../../../../workers/evaluator/embedder';
import { createSupportModel } from '../../../../workers/evaluator/nli';
import { tinyRuntime, TINY_MODEL_IDS } from '../../evaluator/tiny';
import { ctx } from './fakes';

const nli = createSupportModel({ ...tinyRuntime(), model: { id: TINY_MODEL_IDS.nli, dtype: 'fp32' } });
const embedder = createEmbedder({ ...tinyRuntime(), model: { id: TINY_MODEL_IDS.embedder, dtype: 'fp32' } });
// The same premise/hypothesis mapping as the evaluator client.
const critic: Critic = {
  relevance: async () => [],
  support: (pairs, signal) =>
    nli.support(
      pairs.map((p) => ({ premise: p.passage.text, hypothesis: p.text })),
      signal,
    ),
};
const reply = (text: string): Writer => ({ write: async () => text });
const softmax = (xs: number[]) => xs.map((x) => Math.exp(x) / xs.reduce((s, y) => s + Math.exp(y), 0));

describe('RAGAS with the tiny models', () => {
  it('faithfulness: NLI supports the grounded statement only, F = 1/3', async () => {
    const context = [ctx('tides#3', 'The Bay of Fundy in Canada has the largest tidal range in the world.')];
    const statements = [
      'The Bay of Fundy has the largest tidal range.', // f = 5/5 → entailment
      'Honeybees make honey in Canada.', // f = 1/4 → neutral
      'The Bay of Fundy is not in Canada.', // f = 3/3 with a one-sided "not" → contradiction
    ];
    const f = await faithfulness('Where is the largest tidal range?', 'x', context, {
      writer: reply(statements.join('\n')),
      critic,
      models: { writer: 'scripted', nli: nli.model },
    });
    expect(f.statements.map((s) => s.supported)).toEqual([true, false, false]);
    expect(f.score).toBeCloseTo(1 / 3, 12);
    expect(f.unsupported).toEqual(statements.slice(1));
    expect(f.statements[0]?.probability).toBeCloseTo(softmax([3, 0, -3])[0]!, 5);
    expect(f.statements[1]?.probability).toBeCloseTo(softmax([-1.5, 0, -3])[0]!, 5);
    expect(f.statements[2]?.probability).toBeCloseTo(softmax([-5, 0, 5])[0]!, 5);
    expect(f.models).toEqual(['writer: scripted', `nli: ${TINY_MODEL_IDS.nli}`]);
  });

  it('answer relevance: mean cosine of the generated questions to the real one', async () => {
    const ar = await answerRelevance(
      'Where is the largest tidal range?',
      'The Bay of Fundy.',
      {
        writer: reply('Which bay has the largest tidal range?\nHow do bees make honey?'),
        embedder,
        models: { writer: 'scripted', embedder: embedder.model },
      },
      2,
    );
    // q = {where, is, the: 0.2; largest, tidal, range: 1}; q1 adds bay (1), which, has (0.2) and shares "the".
    const dot = 3 + 0.2 * 0.2;
    const cos1 = dot / Math.sqrt((3 + 3 * 0.04) * (4 + 3 * 0.04));
    // q2 = {how, do: 0.2; bees, make, honey: 1} shares no word with q.
    expect(ar.similarities[0]).toBeCloseTo(cos1, 5);
    expect(ar.similarities[1]).toBeCloseTo(0, 5);
    expect(ar.score).toBeCloseTo(cos1 / 2, 5);
  });
});
