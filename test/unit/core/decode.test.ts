import { describe, expect, it } from 'vitest';
import { decode } from '../../../src/core/decode';
import type { Corrector, ScoredPassage } from '../../../src/core/ports';
import type { DecodeEvent } from '../../../src/core/types';
import { FakeCritic } from '../../doubles/fake-critic';
import { FakeRetriever, passage } from '../../doubles/fake-retriever';
import { ScriptedGenerator, pathKey, scriptKey } from '../../doubles/scripted-generator';
import { bestTexts, no, rankWith, rel, settings, sup, use, yes } from './helpers';

const Q = 'Who designed the Eiffel Tower and when was it built?';
const p1 = passage('p1', "Gustave Eiffel's company designed the Eiffel Tower.", 'Eiffel Tower');
const p2 = passage('p2', 'The tower was built from 1887 to 1889.', 'Eiffel Tower');
const p3 = passage('p3', 'Paris is the capital of France.', 'Paris');
const scored = (...ps: (typeof p1)[]): ScoredPassage[] => ps.map((p, i) => ({ ...p, score: 1 - i / 10 }));

const A = "Eiffel's company designed it.";
const B = 'It was built in 1887.';
const A1 = 'It is in Paris.';
const B1 = 'It opened in 1889.';
const B2 = 'Paris is a capital.';
const B1a = 'It took two years.';

describe('decode follows Algorithm 1 with a segment beam, step by step', () => {
  // Segment scores with weights 1 / 1 / 0.5 (rel + sup + 0.5·use):
  //   A  (p1)   0.9 + 0.925 + 0.45  = 2.275      B  (p2) 0.6 + 0.65 + 0.125 = 1.375
  //   A1 (none) 0.5·0 = 0          → path mean (2.275 + 0) / 2        = 1.1375
  //   B1 (p2)   0.9 + 0.85 + 0.5    = 2.25 → path (1.375 + 2.25) / 2   = 1.8125
  //   B2 (p3)   0.2 + 0.15 + 0      = 0.35 → path (1.375 + 0.35) / 2   = 0.8625
  //   B1a(none) 0.5·1 = 0.5        → path (1.375 + 2.25 + 0.5) / 3    = 1.375
  // Greedy would commit to A (the best first segment) and end at 1.1375; the beam keeps B
  // and finds B ▸ B1 ▸ B1a (1.375).
  const script = () =>
    new ScriptedGenerator({
      retrieve: {
        [pathKey([])]: yes,
        [pathKey([A])]: no,
        [pathKey([B])]: yes,
        [pathKey([B, B1])]: { retrieval: 0.15, noRetrieval: 0.85 },
      },
      segments: {
        [scriptKey([], 'p1')]: { text: A, rel: rel(0.9), sup: sup(0.9, 0.05, 0.05), use: [0, 0, 0, 0.2, 0.8] },
        [scriptKey([], 'p2')]: { text: B, rel: rel(0.6), sup: sup(0.5, 0.3, 0.2), use: [0, 0, 0.5, 0.5, 0] },
        [scriptKey([A], null)]: { text: A1, use: use(3), done: true },
        [scriptKey([B], 'p2')]: { text: B1, rel: rel(0.9), sup: sup(0.8, 0.1, 0.1), use: use(5) },
        [scriptKey([B], 'p3')]: { text: B2, rel: rel(0.2), sup: sup(0.1, 0.1, 0.8), use: use(3), done: true },
        [scriptKey([B, B1], null)]: { text: B1a, use: use(5), done: true },
      },
    });
  const retriever = () =>
    new FakeRetriever((query) => (query === Q ? scored(p1, p2) : query === `${Q}\n${B}` ? scored(p2, p3) : []));

  it('makes exactly the port calls the algorithm prescribes, in order', async () => {
    const generator = script();
    const ret = retriever();
    const events: DecodeEvent[] = [];
    const result = await decode(
      Q,
      { generator, retriever: ret },
      settings({ maxDepth: 3, passagesPerStep: 2 }),
      rankWith(),
      {
        onEvent: (e) => events.push(e),
      },
    );

    expect(generator.calls).toEqual([
      { kind: 'decideRetrieval', previous: [] },
      {
        kind: 'generateSegments',
        requests: [
          { previous: [], passageId: 'p1' },
          { previous: [], passageId: 'p2' },
        ],
      },
      { kind: 'decideRetrieval', previous: [A] },
      { kind: 'generateSegments', requests: [{ previous: [A], passageId: null }] },
      { kind: 'decideRetrieval', previous: [B] },
      {
        kind: 'generateSegments',
        requests: [
          { previous: [B], passageId: 'p2' },
          { previous: [B], passageId: 'p3' },
        ],
      },
      { kind: 'decideRetrieval', previous: [B, B1] },
      { kind: 'generateSegments', requests: [{ previous: [B, B1], passageId: null }] },
    ]);
    // Retrieval uses the question plus the previous segment, (x, y_{t-1}).
    expect(ret.calls).toEqual([
      { query: Q, k: 2 },
      { query: `${Q}\n${B}`, k: 2 },
    ]);

    expect(bestTexts(result)).toEqual([B, B1, B1a]);
    expect(result.ranking.best.map((s) => s.candidate.passage?.id ?? null)).toEqual(['p2', 'p2', null]);
    expect(result.ranking.best.map((s) => s.pathScore)).toEqual(
      [1.375, 1.8125, 1.375].map((x) => expect.closeTo(x, 9)),
    );
    expect(result.aborted).toBe(false);
    expect(result.tree.candidates.map((c) => c.text)).toEqual([A, B, A1, B1, B2, B1a]);

    const beams = events.filter((e) => e.type === 'beam');
    const text = (id: string) => result.tree.candidates.find((c) => c.id === id)?.text;
    expect(beams.map((e) => e.type === 'beam' && [e.depth, e.kept.map(text)])).toEqual([
      [0, [A, B]],
      [1, [B1, A1]],
      [2, [B1a]],
    ]);
    expect(
      events.filter((e) => e.type === 'retrieval-decision').map((e) => e.type === 'retrieval-decision' && e.retrieve),
    ).toEqual([true, false, true, false]);
    expect(events.filter((e) => e.type === 'candidate')).toHaveLength(6);
    expect(events.filter((e) => e.type === 'text').map((e) => e.type === 'text' && e.text)).toEqual([
      A,
      B,
      A1,
      B1,
      B2,
      B1a,
    ]);
  });

  it('with beam width 1 (greedy) it commits to the first-best segment and ends worse', async () => {
    const result = await decode(
      Q,
      { generator: script(), retriever: retriever() },
      settings({ maxDepth: 3, passagesPerStep: 2, beamWidth: 1 }),
      rankWith(),
    );
    expect(bestTexts(result)).toEqual([A, A1]);
    expect(result.ranking.best.at(-1)?.pathScore).toBeCloseTo(1.1375, 9);
  });

  it('cites the passage each chosen segment was written from, with its critique probabilities', async () => {
    const result = await decode(
      Q,
      { generator: script(), retriever: retriever() },
      settings({ maxDepth: 3, passagesPerStep: 2 }),
      rankWith(),
    );
    const [first] = result.ranking.best;
    expect(first?.candidate.passage).toMatchObject({ id: 'p2', title: 'Eiffel Tower', text: p2.text });
    expect(first?.candidate.rel).toEqual(rel(0.6));
    expect(first?.candidate.sup).toEqual(sup(0.5, 0.3, 0.2));
    expect(first?.candidate.fromGenerator.use).toEqual([0, 0, 0.5, 0.5, 0]);
  });
});

describe('retrieval decision', () => {
  const oneStep = (probs: { retrieval: number; noRetrieval: number }, threshold: number) => {
    const generator = new ScriptedGenerator({
      retrieve: () => probs,
      segments: (req) => ({ text: req.passage ? 'from passage' : 'from memory', use: use(4), done: true }),
    });
    const retriever = new FakeRetriever([p1]);
    return {
      generator,
      retriever,
      run: () => decode('Eiffel Tower', { generator, retriever }, settings({ threshold }), rankWith()),
    };
  };

  // p(Retrieval) normalised = 1 / (1 + 4) = 0.2 exactly.
  it.each([
    ['below δ', { retrieval: 1, noRetrieval: 4 }, 0.25, false],
    ['at δ (strictly above is required)', { retrieval: 1, noRetrieval: 4 }, 0.2, false],
    ['above δ', { retrieval: 1, noRetrieval: 4 }, 0.15, true],
  ] as const)('adaptive: %s', async (_name, probs, threshold, retrieves) => {
    const t = oneStep(probs, threshold);
    const result = await t.run();
    expect(t.retriever.calls).toHaveLength(retrieves ? 1 : 0);
    const [c] = result.tree.candidates;
    expect(c?.retrieve).toEqual({ probs, retrieved: retrieves, reason: 'adaptive' });
    expect(c?.text).toBe(retrieves ? 'from passage' : 'from memory');
  });

  it('uses probabilities, so a confident [No Retrieval] is not overturned by tiny numbers', async () => {
    // Dividing log-probs (the reference short-form bug) would give log(0.01)/(log(0.01)+log(0.99)) ≈ 1.
    const t = oneStep({ retrieval: 0.01, noRetrieval: 0.99 }, 0.2);
    await t.run();
    expect(t.retriever.calls).toHaveLength(0);
  });

  it("'always' retrieves at every step without asking the generator", async () => {
    const generator = new ScriptedGenerator({
      segments: (req) => ({
        text: `step ${req.previous.length}`,
        rel: rel(0.8),
        sup: sup(1, 0, 0),
        use: use(5),
        done: req.previous.length === 2,
      }),
    });
    const retriever = new FakeRetriever(() => scored(p1));
    const result = await decode(Q, { generator, retriever }, settings({ mode: 'always', beamWidth: 1 }), rankWith());
    expect(generator.decideCalls).toBe(0);
    expect(retriever.calls).toHaveLength(3);
    expect(
      result.tree.candidates.every(
        (c) => c.retrieve.retrieved && c.retrieve.reason === 'always' && c.passage?.id === 'p1',
      ),
    ).toBe(true);
    expect(bestTexts(result)).toEqual(['step 0', 'step 1', 'step 2']);
  });

  it("'never' writes without passages and never touches the retriever", async () => {
    const generator = new ScriptedGenerator({
      // Even if the generator reports ISREL / ISSUP, a segment without a passage is scored on ISUSE only.
      segments: (req) => ({
        text: `step ${req.previous.length}`,
        rel: rel(1),
        sup: sup(1, 0, 0),
        use: use(5),
        done: req.previous.length === 1,
      }),
    });
    const retriever = new FakeRetriever([p1]);
    const result = await decode(Q, { generator, retriever }, settings({ mode: 'never' }), rankWith());
    expect(retriever.calls).toHaveLength(0);
    expect(generator.decideCalls).toBe(0);
    expect(
      generator.calls.every((c) => c.kind !== 'generateSegments' || c.requests.every((r) => r.passageId === null)),
    ).toBe(true);
    expect(bestTexts(result)).toEqual(['step 0', 'step 1']);
    expect(result.ranking.best.map((s) => s.segmentScore)).toEqual([0.5, 0.5]);
    expect(result.tree.candidates[0]?.retrieve).toEqual({ probs: null, retrieved: false, reason: 'never' });
  });

  it('[Continue to Use Evidence] writes the next segment from the parent passage without retrieving', async () => {
    const generator = new ScriptedGenerator({
      retrieve: {
        // At the first segment there is no evidence to continue with: the threshold decides (0.3 / 0.4 > 0.2).
        [pathKey([])]: { retrieval: 0.3, noRetrieval: 0.1, continueEvidence: 0.6 },
        [pathKey(['First.'])]: { retrieval: 0.3, noRetrieval: 0.1, continueEvidence: 0.6 },
      },
      segments: {
        [scriptKey([], 'p1')]: { text: 'First.', rel: rel(0.9), sup: sup(1, 0, 0), use: use(5) },
        [scriptKey(['First.'], 'p1')]: { text: 'Second.', rel: rel(0.9), sup: sup(1, 0, 0), use: use(5), done: true },
      },
    });
    const retriever = new FakeRetriever(() => scored(p1));
    const result = await decode(Q, { generator, retriever }, settings({ passagesPerStep: 1 }), rankWith());
    expect(retriever.calls).toHaveLength(1);
    expect(bestTexts(result)).toEqual(['First.', 'Second.']);
    const second = result.ranking.best[1]?.candidate;
    expect(second?.retrieve).toMatchObject({ retrieved: false, reason: 'continue' });
    expect(second?.passage?.id).toBe('p1');
  });

  it('retrieval that finds nothing falls back to writing without a passage, and says so', async () => {
    const generator = new ScriptedGenerator({
      segments: { [scriptKey([], null)]: { text: 'No documents mention it.', use: use(2), done: true } },
    });
    const result = await decode(
      Q,
      { generator, retriever: new FakeRetriever([]) },
      settings({ mode: 'always' }),
      rankWith(),
    );
    const [c] = result.tree.candidates;
    expect(c?.passage).toBeNull();
    expect(c?.retrieve).toMatchObject({ retrieved: true, reason: 'always' });
    expect(c?.retrieve.note).toMatch(/no passages/);
    expect(bestTexts(result)).toEqual(['No documents mention it.']);
  });

  it('asks the retriever for passagesPerStep passages and writes one candidate per passage in one batch', async () => {
    const generator = new ScriptedGenerator({
      segments: (req) => ({ text: req.passage?.id ?? '-', rel: rel(0.5), sup: sup(1, 0, 0), use: use(3), done: true }),
    });
    const retriever = new FakeRetriever(() => scored(p1, p2, p3));
    const result = await decode(
      Q,
      { generator, retriever },
      settings({ mode: 'always', passagesPerStep: 2 }),
      rankWith(),
    );
    expect(retriever.calls).toEqual([{ query: Q, k: 2 }]);
    // A retriever that returns more than asked is cut to k.
    expect(generator.calls).toEqual([
      {
        kind: 'generateSegments',
        requests: [
          { previous: [], passageId: 'p1' },
          { previous: [], passageId: 'p2' },
        ],
      },
    ]);
    expect(result.tree.candidates).toHaveLength(2);
  });
});

describe('malformed but usable generator output', () => {
  it('is kept, marked, and scored on the groups it has', async () => {
    const generator = new ScriptedGenerator({
      segments: {
        [scriptKey([], 'p1')]: {
          text: 'Truncated',
          rel: rel(1),
          use: use(5),
          problem: 'ISSUP slot missing',
          done: true,
        },
      },
    });
    const result = await decode(
      Q,
      { generator, retriever: new FakeRetriever(() => scored(p1)) },
      settings({ mode: 'always' }),
      rankWith(),
    );
    const [c] = result.ranking.best;
    expect(c?.candidate.problem).toBe('ISSUP slot missing');
    expect(c?.candidate.sup).toBeUndefined();
    expect(c?.segmentScore).toBeCloseTo(1 + 0.5, 12);
  });
});

describe('critique source', () => {
  const run = async (critiqueSource: 'generator' | 'evaluator' | 'blend', blend = 0.5) => {
    const generator = new ScriptedGenerator({
      segments: (req) => ({
        text: `About ${req.passage?.id}.`,
        rel: rel(0.9),
        sup: sup(0.9, 0.1, 0),
        use: use(4),
        done: true,
      }),
    });
    const critic = new FakeCritic({
      relevance: { p1: { relevant: 1, irrelevant: 3 }, p2: rel(0.9) },
      support: { p1: sup(0, 0, 1), p2: sup(0.5, 0.5, 0) },
    });
    const result = await decode(
      Q,
      { generator, retriever: new FakeRetriever(() => scored(p1, p2)), critic },
      settings({ mode: 'always', passagesPerStep: 2, critiqueSource, blend }),
      rankWith(),
    );
    return { result, critic, c1: result.tree.candidates[0] };
  };

  it("'generator' uses the generator's own tokens and never calls the evaluator", async () => {
    const { critic, c1 } = await run('generator');
    expect(critic.calls).toEqual([]);
    expect(c1?.rel).toEqual(rel(0.9));
    expect(c1?.fromEvaluator).toBeUndefined();
  });

  it("'evaluator' takes ISREL / ISSUP from the critic, in one batch per step, and keeps utility from the generator", async () => {
    const { critic, c1 } = await run('evaluator');
    expect(critic.calls).toEqual([
      { kind: 'relevance', passageIds: ['p1', 'p2'] },
      { kind: 'support', passageIds: ['p1', 'p2'] },
    ]);
    expect(c1?.rel).toEqual({ relevant: 1, irrelevant: 3 });
    expect(c1?.sup).toEqual(sup(0, 0, 1));
    expect(c1?.use).toEqual(use(4));
    expect(c1?.fromGenerator).toEqual({ rel: rel(0.9), sup: sup(0.9, 0.1, 0), use: use(4) });
    expect(c1?.fromEvaluator).toEqual({ rel: { relevant: 1, irrelevant: 3 }, sup: sup(0, 0, 1) });
  });

  it("'blend' mixes the normalised probabilities with the blend weight", async () => {
    const { c1, result } = await run('blend', 0.5);
    // generator (0.9, 0.1), evaluator (1, 3) → (0.25, 0.75) normalised; half and half.
    expect(c1?.rel?.relevant).toBeCloseTo(0.575, 12);
    expect(c1?.rel?.irrelevant).toBeCloseTo(0.425, 12);
    expect(c1?.sup?.full).toBeCloseTo(0.45, 12);
    expect(c1?.sup?.none).toBeCloseTo(0.5, 12);
    // The evaluator's doubt about p1 moves the answer to p2.
    expect(bestTexts(result)).toEqual(['About p2.']);
  });
});

describe('corrective retrieval (Self-CRAG) in the loop', () => {
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
  const corrector = (fix: Awaited<ReturnType<Corrector['correct']>>) => {
    const calls: string[][] = [];
    const c: Corrector = {
      async correct(_q, passages) {
        calls.push(passages.map((p) => p.id));
        return fix;
      },
    };
    return { c, calls };
  };

  it('generates from the passages the corrector returns and records its action', async () => {
    const gen = generator();
    const { c, calls } = corrector({ action: 'ambiguous', passages: scored(p3), details: 'kept 1 strip' });
    const result = await decode(
      Q,
      { generator: gen, retriever: new FakeRetriever(() => scored(p1, p2)), corrector: c },
      settings({ mode: 'always' }),
      rankWith(),
    );
    expect(calls).toEqual([['p1', 'p2']]);
    expect(bestTexts(result)).toEqual(['From p3.']);
    expect(result.ranking.best[0]?.candidate.correction).toEqual({ action: 'ambiguous', details: 'kept 1 strip' });
  });

  it('abstains without generating when the corrector says so, marking the step for the UI', async () => {
    const gen = generator();
    const { c } = corrector({ action: 'incorrect', passages: [], noEvidence: 'abstain' });
    const result = await decode(
      Q,
      { generator: gen, retriever: new FakeRetriever(() => scored(p1)), corrector: c },
      settings({ mode: 'always' }),
      rankWith(),
    );
    expect(gen.generateCalls).toBe(0);
    const [only] = result.ranking.best;
    expect(result.ranking.best).toHaveLength(1);
    expect(only?.candidate).toMatchObject({
      text: '',
      done: true,
      passage: null,
      correction: { action: 'incorrect', noEvidence: 'abstain' },
    });
  });

  it('answers without retrieval when the corrector found no evidence and says so', async () => {
    const gen = generator();
    const { c } = corrector({ action: 'incorrect', passages: [], noEvidence: 'answer-without-retrieval' });
    const result = await decode(
      Q,
      { generator: gen, retriever: new FakeRetriever(() => scored(p1)), corrector: c },
      settings({ mode: 'always' }),
      rankWith(),
    );
    expect(gen.calls).toEqual([{ kind: 'generateSegments', requests: [{ previous: [], passageId: null }] }]);
    expect(result.ranking.best[0]?.candidate).toMatchObject({
      text: 'From memory.',
      passage: null,
      correction: { noEvidence: 'answer-without-retrieval' },
    });
  });
});
