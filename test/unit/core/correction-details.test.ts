// The answer page shows, for a Self-CRAG step, the action, the rewritten query and which
// knowledge strips were kept or dropped: decode must hand all of that over on the candidate.
import { describe, expect, it } from 'vitest';
import { createCorrector } from '../../../src/core/crag/corrector';
import { decode } from '../../../src/core/decode';
import type { Corrector, KnowledgeStrip } from '../../../src/core/ports';
import { ScriptedGenerator } from '../../doubles/scripted-generator';
import { markerScorer, passage, scriptedWriter, tableRetriever } from './crag/fakes';
import { rankWith, rel, settings, sup, use } from './helpers';

const Q = 'When was the bridge opened?';
const generator = () =>
  new ScriptedGenerator({
    segments: (req) => ({
      text: req.passage ? `From ${req.passage.id}.` : 'From memory.',
      rel: rel(0.9),
      sup: sup(1, 0, 0),
      use: use(4),
      done: true,
    }),
  });

describe('decode carries the correction details to the candidate', () => {
  it('records the action, the rewrite and every strip with kept or dropped, from a real corrector', async () => {
    // The first retrieval is Ambiguous (MID), so the corrector refines it AND searches again with a rewrite.
    const first = passage(
      'a#0',
      'The bridge was planned in MID times. Tourists LOW like it. Pigeons LOW nest there.',
      0.9,
    );
    const found = passage('b#0', 'The bridge HIGH opened in 1932.', 0.8);
    const table = { [Q]: [first], 'bridge, opened': [found] };
    const { score } = markerScorer({ HIGH: 0.9, MID: 0.3, LOW: 0.01 });
    const corrector = createCorrector({
      score,
      writer: scriptedWriter(['bridge, opened']),
      retriever: tableRetriever(table),
    });
    const result = await decode(
      Q,
      { generator: generator(), retriever: tableRetriever(table), corrector },
      settings({ mode: 'always' }),
      rankWith(),
    );

    const chosen = result.ranking.best[0]?.candidate;
    expect(chosen?.correction?.action).toBe('ambiguous');
    expect(chosen?.correction?.rewrite).toBe('bridge, opened');
    const strips = chosen?.correction?.strips ?? [];
    expect(strips.filter((s) => s.kept).map((s) => s.text)).toEqual([
      'The bridge was planned in MID times. Tourists LOW like it.',
      'The bridge HIGH opened in 1932.',
    ]);
    expect(strips.filter((s) => !s.kept)).toMatchObject([
      { text: 'Pigeons LOW nest there.', dropped: 'below-threshold', source: 'retrieval' },
    ]);
    expect(strips.find((s) => s.passageId === 'b#0')?.source).toBe('research');
    // Every candidate of the step shares the same record.
    for (const c of result.tree.candidates) expect(c.correction?.strips).toHaveLength(3);
  });

  it('leaves rewrite and strips out when the corrector gives none, and copies the strips it gives', async () => {
    const strips: KnowledgeStrip[] = [
      { passageId: 'a#0', index: 0, text: 'Kept.', score: 0.8, kept: true, source: 'retrieval' },
    ];
    const corrector: Corrector = { correct: async (_q, ps) => ({ action: 'correct', passages: ps, strips }) };
    const retriever = tableRetriever({ [Q]: [passage('a#0', 'Kept.', 0.9)] });
    const withStrips = await decode(
      Q,
      { generator: generator(), retriever, corrector },
      settings({ mode: 'always' }),
      rankWith(),
    );
    const c = withStrips.ranking.best[0]?.candidate;
    expect(c?.correction).toEqual({ action: 'correct', strips });
    strips[0]!.kept = false;
    expect(c?.correction?.strips?.[0]?.kept).toBe(true);

    const bare: Corrector = { correct: async (_q, ps) => ({ action: 'correct', passages: ps }) };
    const without = await decode(
      Q,
      { generator: generator(), retriever, corrector: bare },
      settings({ mode: 'always' }),
      rankWith(),
    );
    expect(without.ranking.best[0]?.candidate.correction).toEqual({ action: 'correct' });
  });
});
