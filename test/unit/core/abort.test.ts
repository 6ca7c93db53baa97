import { describe, expect, it } from 'vitest';
import { decode } from '../../../src/core/decode';
import type { Generator } from '../../../src/core/ports';
import { FakeCritic } from '../../doubles/fake-critic';
import { FakeRetriever, passage } from '../../doubles/fake-retriever';
import { ScriptedGenerator } from '../../doubles/scripted-generator';
import { bestTexts, rankWith, rel, settings, sup, use } from './helpers';

const Q = 'How tall is the Eiffel Tower?';
const retriever = () =>
  new FakeRetriever(() => [passage('p1', 'The tower is 330 metres tall.')].map((p) => ({ ...p, score: 1 })));
// A long answer: every step retrieves and no segment ends it, so only the depth limit or an abort stops it.
const endless = () =>
  new ScriptedGenerator({
    retrieve: () => ({ retrieval: 0.9, noRetrieval: 0.1 }),
    segments: (req) => ({ text: `Segment ${req.previous.length}.`, rel: rel(0.9), sup: sup(1, 0, 0), use: use(5) }),
  });

describe('abort', () => {
  it('stops calling ports once the signal is aborted and returns what was finished', async () => {
    const ctrl = new AbortController();
    const gen = endless();
    const ret = retriever();
    // Abort while the second segment is being generated.
    gen.onCall((call) => {
      if (call.kind === 'generateSegments' && call.requests[0]?.previous.length === 1) ctrl.abort();
    });
    const result = await decode(
      Q,
      { generator: gen, retriever: ret },
      settings({ maxDepth: 6, passagesPerStep: 1 }),
      rankWith(),
      { signal: ctrl.signal },
    );

    expect(result.aborted).toBe(true);
    expect(gen.calls.map((c) => c.kind)).toEqual([
      'decideRetrieval',
      'generateSegments',
      'decideRetrieval',
      'generateSegments',
    ]);
    expect(ret.calls).toHaveLength(2);
    // The step in flight is discarded; the finished first segment is the answer so far.
    expect(result.tree.candidates.map((c) => c.text)).toEqual(['Segment 0.']);
    expect(bestTexts(result)).toEqual(['Segment 0.']);
  });

  it('stops even when a port ignores the signal and finishes its call', async () => {
    const ctrl = new AbortController();
    const gen = endless();
    gen.onCall((call) => {
      if (call.kind === 'generateSegments' && call.requests[0]?.previous.length === 1) ctrl.abort();
    });
    const deaf: Generator = {
      decideRetrieval: (req) => gen.decideRetrieval({ ...req, signal: undefined }),
      generateSegments: (reqs) => gen.generateSegments(reqs.map((r) => ({ ...r, signal: undefined }))),
    };
    const critic = new FakeCritic();
    const result = await decode(
      Q,
      { generator: deaf, retriever: retriever(), critic },
      settings({ passagesPerStep: 1, critiqueSource: 'blend' }),
      rankWith(),
      { signal: ctrl.signal },
    );
    expect(result.aborted).toBe(true);
    expect(gen.calls).toHaveLength(4);
    // The evaluator was asked about the first step only; the aborted step is not critiqued or kept.
    expect(critic.calls.map((c) => c.kind)).toEqual(['relevance', 'support']);
    expect(bestTexts(result)).toEqual(['Segment 0.']);
  });

  it('makes no call at all with a signal aborted before the start', async () => {
    const gen = endless();
    const ret = retriever();
    const ctrl = new AbortController();
    ctrl.abort();
    const result = await decode(Q, { generator: gen, retriever: ret }, settings(), rankWith(), { signal: ctrl.signal });
    expect(result).toMatchObject({ aborted: true, tree: { candidates: [] }, ranking: { best: [] } });
    expect(gen.calls).toEqual([]);
    expect(ret.calls).toEqual([]);
  });

  it('passes the signal to every port', async () => {
    const ctrl = new AbortController();
    const seen: (AbortSignal | undefined)[] = [];
    const gen: Generator = {
      async decideRetrieval(req) {
        seen.push(req.signal);
        return { retrieval: 1, noRetrieval: 0 };
      },
      async generateSegments(reqs) {
        seen.push(...reqs.map((r) => r.signal));
        return reqs.map(() => ({
          text: 'Done.',
          rel: rel(1),
          sup: sup(1, 0, 0),
          use: use(5),
          tokenCount: 1,
          done: true,
        }));
      },
    };
    const ret = new FakeRetriever(() => [{ ...passage('p1', 'x'), score: 1 }]);
    const spy = { ...ret, retrieve: (q: string, k: number, s?: AbortSignal) => (seen.push(s), ret.retrieve(q, k, s)) };
    const critic = new FakeCritic();
    const critSpy = {
      relevance: (q: string, ps: Parameters<FakeCritic['relevance']>[1], s?: AbortSignal) => (
        seen.push(s), critic.relevance(q, ps)
      ),
      support: (pairs: Parameters<FakeCritic['support']>[0], s?: AbortSignal) => (seen.push(s), critic.support(pairs)),
    };
    await decode(
      Q,
      { generator: gen, retriever: spy, critic: critSpy },
      settings({ critiqueSource: 'evaluator' }),
      rankWith(),
      { signal: ctrl.signal },
    );
    expect(seen).toHaveLength(5);
    expect(seen.every((s) => s === ctrl.signal)).toBe(true);
  });

  it('resolves (does not throw) when a port rejects because of the abort', async () => {
    const ctrl = new AbortController();
    const gen = endless();
    gen.onCall((call) => {
      if (call.kind === 'decideRetrieval' && call.previous.length === 2) ctrl.abort();
    });
    // The scripted generator rejects with an AbortError when it sees the aborted signal.
    const result = await decode(
      Q,
      { generator: gen, retriever: retriever() },
      settings({ passagesPerStep: 1 }),
      rankWith(),
      { signal: ctrl.signal },
    );
    expect(result.aborted).toBe(true);
    expect(bestTexts(result)).toEqual(['Segment 0.', 'Segment 1.']);
    expect(gen.calls.at(-1)).toEqual({ kind: 'decideRetrieval', previous: ['Segment 0.', 'Segment 1.'] });
  });
});
