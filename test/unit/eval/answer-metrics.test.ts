import { describe, expect, it } from 'vitest';
import type { Embedder, Writer } from '../../../src/core/ports';
import type { RagasPorts } from '../../../src/core/ragas/evaluate';
import type { Ranking, ScoredCandidate } from '../../../src/core/types';
import { answerForMetrics, measureAnswer, type MetricsState } from '../../../src/ui/eval/answer-metrics';

const passage = { id: 'd#0', docId: 'd', title: 'D', text: 'Nolan directed it. It is long.', index: 0, score: 1 };
const cand = (id: string, text: string, withPassage: boolean): ScoredCandidate =>
  ({
    candidate: { id, parentId: null, depth: 0, text, passage: withPassage ? passage : null, retrieve: { probs: null, retrieved: withPassage, reason: 'always' }, fromGenerator: {}, tokenCount: 1, done: true },
    segmentScore: 0,
    pathScore: 0,
    inBeam: true,
  }) as ScoredCandidate;
const ranking: Ranking = { best: [cand('a', ' Nolan directed it. ', true), cand('b', 'It is long.', true), cand('c', '', false)], scored: new Map() };

function ports(gate?: Promise<void>): RagasPorts {
  const writer: Writer = {
    async write(p) {
      await gate;
      if (p.includes('create one or more statements')) return 'Nolan directed it.';
      if (p.includes('Generate a question')) return 'Who directed it?';
      return 'Nolan directed it.';
    },
  };
  const embedder: Embedder = { embed: async (t) => t.map(() => Float32Array.from([1, 0])) };
  return { writer, embedder, models: { writer: 'W' } };
}

describe('answer metrics beside the answer', () => {
  it('measures the chosen answer against the distinct passages it cites', () => {
    const input = answerForMetrics('Who directed it?', ranking);
    expect(input.answer).toBe('Nolan directed it. It is long.');
    expect(input.contexts.map((c) => c.id)).toEqual(['d#0']);
  });

  it('reports running, then the metrics', async () => {
    const states: MetricsState[] = [];
    await new Promise<void>((done) => {
      measureAnswer(answerForMetrics('Who directed it?', ranking), async () => ports(), (s) => {
        states.push(s);
        if (s.status !== 'running') done();
      });
    });
    expect(states.map((s) => s.status)).toEqual(['running', 'done']);
    const last = states[1];
    expect(last?.status === 'done' && last.report.contextRelevance.score).toBe(0.5);
  });

  it('a cancelled measurement never reports a result', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const states: MetricsState[] = [];
    const cancel = measureAnswer(answerForMetrics('q', ranking), async () => ports(gate), (s) => states.push(s));
    cancel();
    open();
    await new Promise((r) => setTimeout(r, 20));
    expect(states.map((s) => s.status)).toEqual(['running', 'cancelled']);
  });
});
