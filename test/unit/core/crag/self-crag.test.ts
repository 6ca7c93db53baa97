import { describe, expect, it } from 'vitest';
import { createCorrector } from '../../../../src/core/crag/corrector';
import { decode } from '../../../../src/core/decode';
import { DEFAULT_DECODE_SETTINGS, DEFAULT_RANK_SETTINGS } from '../../../../src/core/defaults';
import type { Generator, SegmentRequest } from '../../../../src/core/ports';
import { markerScorer, passage, scriptedWriter, tableRetriever } from './fakes';

/** Writes each segment by quoting its passage, so the answer shows exactly which knowledge it was given. */
function quotingGenerator(): Generator & { seen: (string | null)[] } {
  const seen: (string | null)[] = [];
  return {
    seen,
    async decideRetrieval() {
      return { retrieval: 0.9, noRetrieval: 0.1 };
    },
    async generateSegments(reqs: SegmentRequest[]) {
      return reqs.map((r) => {
        seen.push(r.passage?.text ?? null);
        return {
          text: r.passage ? `Per the source: ${r.passage.text}` : 'I answer from memory.',
          ...(r.passage
            ? { rel: { relevant: 0.9, irrelevant: 0.1 }, sup: { full: 0.8, partial: 0.1, none: 0.1 } }
            : {}),
          use: [0, 0, 0, 0.2, 0.8] as [number, number, number, number, number],
          tokenCount: 8,
          done: true,
        };
      });
    },
  };
}

const Q = 'Where was Ada Lovelace born?';
const settings = { ...DEFAULT_DECODE_SETTINGS, mode: 'always' as const, maxDepth: 1, passagesPerStep: 2 };

describe('Self-CRAG inside the Self-RAG decode', () => {
  it('generates from the refined knowledge, not the raw passages', async () => {
    const raw = [
      passage('a#0', 'Ada was born in London GOOD. Gossip about BAD cats. More BAD filler. Still BAD.'),
      passage('b#0', 'Entirely BAD passage.'),
    ];
    const generator = quotingGenerator();
    const retriever = tableRetriever({ [Q]: raw });
    const corrector = createCorrector({
      score: markerScorer({ GOOD: 0.9, BAD: 0.01 }).score,
      writer: scriptedWriter([]),
      retriever,
    });
    const result = await decode(Q, { generator, retriever, corrector }, settings, DEFAULT_RANK_SETTINGS);
    expect(generator.seen).toEqual(['Ada was born in London GOOD. Gossip about BAD cats.']);
    const best = result.ranking.best.map((s) => s.candidate);
    expect(best[0]?.text).toBe('Per the source: Ada was born in London GOOD. Gossip about BAD cats.');
    expect(best[0]?.passage?.id).toBe('a#0');
    expect(best[0]?.correction?.action).toBe('correct');
  });

  it('with corrective retrieval switched off, the raw passages reach the generator', async () => {
    const raw = [passage('a#0', 'Ada was born in London GOOD. Gossip about BAD cats. More BAD filler. Still BAD.')];
    const generator = quotingGenerator();
    await decode(Q, { generator, retriever: tableRetriever({ [Q]: raw }) }, settings, DEFAULT_RANK_SETTINGS);
    expect(generator.seen).toEqual([raw[0]?.text]);
  });

  it('an Incorrect retrieval is replaced by the re-search found with the rewrite', async () => {
    const generator = quotingGenerator();
    const retriever = tableRetriever({
      [Q]: [passage('x#0', 'BAD.')],
      'Ada Lovelace, born': [passage('y#0', 'Born in London GOOD.')],
    });
    const corrector = createCorrector({
      score: markerScorer({ GOOD: 0.9, BAD: 0.01 }).score,
      writer: scriptedWriter(['Ada Lovelace, born']),
      retriever,
    });
    const result = await decode(Q, { generator, retriever, corrector }, settings, DEFAULT_RANK_SETTINGS);
    expect(generator.seen).toEqual(['Born in London GOOD.']);
    expect(result.ranking.best[0]?.candidate.correction?.action).toBe('incorrect');
  });

  it('with no evidence anywhere, writes without a passage and never invents one', async () => {
    const generator = quotingGenerator();
    const retriever = tableRetriever({ [Q]: [passage('x#0', 'BAD.')] });
    const corrector = createCorrector({
      score: markerScorer({ BAD: 0.01 }).score,
      writer: scriptedWriter(['Ada']),
      retriever,
    });
    const result = await decode(Q, { generator, retriever, corrector }, settings, DEFAULT_RANK_SETTINGS);
    expect(generator.seen).toEqual([null]);
    const first = result.ranking.best[0]?.candidate;
    expect(first?.passage).toBeNull();
    expect(first?.correction?.noEvidence).toBe('answer-without-retrieval');
  });

  it('abstains when the setting says so', async () => {
    const generator = quotingGenerator();
    const retriever = tableRetriever({ [Q]: [passage('x#0', 'BAD.')] });
    const corrector = createCorrector({
      score: markerScorer({ BAD: 0.01 }).score,
      writer: scriptedWriter(['Ada']),
      retriever,
      settings: { noEvidence: 'abstain' },
    });
    const result = await decode(Q, { generator, retriever, corrector }, settings, DEFAULT_RANK_SETTINGS);
    expect(generator.seen).toEqual([]);
    expect(result.ranking.best[0]?.candidate.correction?.noEvidence).toBe('abstain');
  });
});
