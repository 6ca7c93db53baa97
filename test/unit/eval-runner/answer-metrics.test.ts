import { describe, expect, it } from 'vitest';
import type { Embedder, Writer } from '../../../src/core/ports';
import type { RagasPorts } from '../../../src/core/ragas/evaluate';
import type { Ranking, ScoredCandidate } from '../../../src/core/types';
import {
  answerForMetrics,
  createMetricsSession,
  measureAnswer,
  type MetricsState,
  type MetricsView,
} from '../../../src/eval-runner/answer-metrics';

const passage = { id: 'd#0', docId: 'd', title: 'D', text: 'Nolan directed it. It is long.', index: 0, score: 1 };
const cand = (id: string, text: string, withPassage: boolean): ScoredCandidate =>
  ({
    candidate: {
      id,
      parentId: null,
      depth: 0,
      text,
      passage: withPassage ? passage : null,
      retrieve: { probs: null, retrieved: withPassage, reason: 'always' },
      fromGenerator: {},
      tokenCount: 1,
      done: true,
    },
    segmentScore: 0,
    pathScore: 0,
    inBeam: true,
  }) as ScoredCandidate;
const ranking: Ranking = {
  best: [cand('a', ' Nolan directed it. ', true), cand('b', 'It is long.', true), cand('c', '', false)],
  scored: new Map(),
};

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
      measureAnswer(
        answerForMetrics('Who directed it?', ranking),
        async () => ports(),
        (s) => {
          states.push(s);
          if (s.status !== 'running') done();
        },
      );
    });
    expect(states.map((s) => s.status)).toEqual(['running', 'done']);
    const last = states[1];
    expect(last?.status === 'done' && last.report.contextRelevance.score).toBe(0.5);
  });

  it('a cancelled measurement never reports a result', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const states: MetricsState[] = [];
    const cancel = measureAnswer(
      answerForMetrics('q', ranking),
      async () => ports(gate),
      (s) => states.push(s),
    );
    cancel();
    open();
    await new Promise((r) => setTimeout(r, 20));
    expect(states.map((s) => s.status)).toEqual(['running', 'cancelled']);
  });

  describe('on the answer page', () => {
    const other: Ranking = { best: [cand('b', 'It is long.', true)], scored: new Map() };
    const settle = () => new Promise((r) => setTimeout(r, 20));

    /** Ports whose every call is logged; unless `free`, each write waits for `next()`. */
    function logged() {
      const log: string[] = [];
      const waiting: (() => void)[] = [];
      const base = ports();
      const m = {
        log,
        free: false,
        next: () => waiting.shift()?.(),
        ports: {
          ...base,
          writer: {
            async write(prompt: string, o?: { maxTokens?: number; signal?: AbortSignal }) {
              log.push('write');
              if (!m.free) await new Promise<void>((r) => waiting.push(r));
              return base.writer.write(prompt, o);
            },
          },
          embedder: {
            async embed(texts: string[]) {
              log.push('embed');
              return base.embedder.embed(texts);
            },
          },
        } satisfies RagasPorts,
      };
      return m;
    }
    const last = (views: MetricsView[]) => views[views.length - 1]!;

    it("measures each finished decode once by itself; a re-rank calls no model and marks the figures as the earlier answer's", async () => {
      const m = logged();
      m.free = true;
      const views: MetricsView[] = [];
      const session = createMetricsSession(
        async () => m.ports,
        (v) => views.push(v),
      );
      session.show(1, answerForMetrics('Who directed it?', ranking));
      await settle();
      expect(last(views).measured?.state.status).toBe('done');
      expect(last(views).stale).toBe(false);
      const spent = m.log.length;
      expect(spent).toBeGreaterThan(0);
      expect(last(views).calls).toBe(spent);

      session.show(1, answerForMetrics('Who directed it?', other));
      await settle();
      expect(m.log.length).toBe(spent);
      expect(last(views)).toMatchObject({ stale: true, calls: spent, measured: { state: { status: 'done' } } });

      // Back to the measured answer: the figures fit again, still without a call.
      session.show(1, answerForMetrics('Who directed it?', ranking));
      expect(last(views).stale).toBe(false);

      session.show(1, answerForMetrics('Who directed it?', other));
      session.measureShown();
      await settle();
      expect(m.log.length).toBeGreaterThan(spent);
      expect(last(views)).toMatchObject({ stale: false, calls: m.log.length, measured: { state: { status: 'done' } } });
    });

    it('a new decode cancels the running measurement: it calls nothing more and never reports', async () => {
      const m = logged();
      const views: MetricsView[] = [];
      const session = createMetricsSession(
        async () => m.ports,
        (v) => views.push(v),
      );
      session.show(1, answerForMetrics('Who directed it?', ranking));
      await settle();
      expect(m.log).toEqual(['write']);

      session.show(2, answerForMetrics('Who directed it?', other));
      await settle();
      m.next(); // the first decode's writer answers after the switch
      await settle();
      expect(m.log).toEqual(['write', 'write']);
      expect(views.some((v) => v.measured?.state.status === 'done')).toBe(false);
      expect(last(views)).toMatchObject({ calls: 1, stale: false, measured: { state: { status: 'running' } } });

      m.free = true;
      m.next();
      await settle();
      expect(last(views)).toMatchObject({ stale: false, measured: { state: { status: 'done' } } });
    });

    it('the user can cancel between two calls and nothing more is called; going away cancels too', async () => {
      const m = logged();
      const views: MetricsView[] = [];
      const session = createMetricsSession(
        async () => m.ports,
        (v) => views.push(v),
      );
      session.show(1, answerForMetrics('Who directed it?', ranking));
      await settle();
      m.next(); // statements written; the verification write starts
      await settle();
      expect(m.log).toEqual(['write', 'write']);
      session.cancel();
      m.next();
      await settle();
      expect(m.log).toEqual(['write', 'write']);
      expect(last(views).measured?.state.status).toBe('cancelled');

      session.measureShown();
      await settle();
      session.dispose();
      const seen = views.length;
      m.next();
      await settle();
      expect(m.log).toEqual(['write', 'write', 'write']);
      expect(views.length).toBe(seen);
    });
  });
});
