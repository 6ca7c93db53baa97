// Algorithm 1's steps one at a time (src/core/decoding/): each is a function of the decoding
// context, so each is checked here on its own; test/unit/core/decode.test.ts and the conformance
// suite check them together.
import { describe, expect, it } from 'vitest';
import { withinBudget } from '../../../../src/core/decoding/budget';
import { DecodeContext, type DecodePorts, type Plan, Stop } from '../../../../src/core/decoding/context';
import { evaluate } from '../../../../src/core/decoding/evaluate';
import { expand } from '../../../../src/core/decoding/expand';
import { gate } from '../../../../src/core/decoding/gate';
import { planStep } from '../../../../src/core/decoding/plan';
import { choose, decideRetrieval } from '../../../../src/core/decoding/retrieve-decision';
import { CoreInputError } from '../../../../src/core/errors';
import type { ResolvedCritiqueSource, ScoredPassage } from '../../../../src/core/ports';
import type { Candidate, DecodeEvent, DecodeSettings } from '../../../../src/core/types';
import { FakeCritic } from '../../../doubles/fake-critic';
import { FakeRetriever, passage } from '../../../doubles/fake-retriever';
import { ScriptedGenerator, scriptKey } from '../../../doubles/scripted-generator';
import { rel, settings, sup, use } from '../helpers';

const P1 = passage('p1', 'Lyon is a city in France on the Rhone.', 'Lyon');
const P2 = passage('p2', 'Paris is the capital of France.', 'Paris');
const P3 = passage('p3', 'Bread is baked in ovens.', 'Bread');
const scored = (p: typeof P1, score = 1): ScoredPassage => ({ ...p, score });

function context(
  ports: Partial<DecodePorts> & Pick<DecodePorts, 'generator'>,
  over: Partial<DecodeSettings> = {},
  source: ResolvedCritiqueSource = 'generator',
  signal?: AbortSignal,
) {
  const events: DecodeEvent[] = [];
  const ctx = new DecodeContext(
    'Where is Lyon?',
    { retriever: new FakeRetriever([P1, P2, P3]), ...ports },
    settings(over),
    source,
    signal,
    (e) => events.push(e),
  );
  return { ctx, events };
}

const generator = () =>
  new ScriptedGenerator({
    retrieve: () => ({ retrieval: 0.9, noRetrieval: 0.1 }),
    segments: (r) => ({ text: `From ${r.passage?.id ?? 'memory'}.`, rel: rel(0.8), sup: sup(1, 0, 0), use: use(4) }),
  });

describe('the retrieval decision (Algorithm 1, line 1)', () => {
  it('thresholds p([Retrieval]) at δ, and keeps using the evidence in hand when the model says continue', () => {
    expect(choose({ retrieval: 0.3, noRetrieval: 0.7 }, false, 0.2)).toBe('retrieve');
    expect(choose({ retrieval: 0.1, noRetrieval: 0.9 }, false, 0.2)).toBe('no');
    expect(choose({ retrieval: 0.1, noRetrieval: 0.1, continueEvidence: 0.8 }, true, 0.2)).toBe('continue');
    // Continue without a passage in hand: go on without retrieving.
    expect(choose({ retrieval: 0, noRetrieval: 0, continueEvidence: 1 }, false, 0.2)).toBe('no');
  });

  it('asks the generator only in adaptive mode', async () => {
    const gen = generator();
    const always = context({ generator: gen }, { mode: 'always' }).ctx;
    expect(await decideRetrieval(always, null, [])).toEqual({ choice: 'retrieve', probs: null });
    expect(gen.calls).toHaveLength(0);
    const adaptive = context({ generator: gen }, { mode: 'adaptive' }).ctx;
    expect((await decideRetrieval(adaptive, null, [])).choice).toBe('retrieve');
    expect(gen.calls).toEqual([{ kind: 'decideRetrieval', previous: [] }]);
  });
});

describe('planning a step (retrieve, correct)', () => {
  it("retrieves with the question and the node's last segment, one plan per passage", async () => {
    const retriever = new FakeRetriever([P1, P2, P3]);
    const { ctx, events } = context({ generator: generator(), retriever }, { mode: 'always', passagesPerStep: 2 });
    const plans = (await planStep(ctx, null, 1, ['Lyon is in France.'])) as Plan[];
    expect(retriever.calls[0]).toEqual({ query: 'Where is Lyon?\nLyon is in France.', k: 2 });
    expect(plans).toHaveLength(2);
    expect(plans.every((p) => p.retrieve.retrieved)).toBe(true);
    expect(events.map((e) => e.type)).toEqual(['retrieval-decision', 'retrieved']);
  });

  it('plans one segment without a passage, with a note, when retrieval finds nothing', async () => {
    const { ctx } = context({ generator: generator(), retriever: new FakeRetriever([]) }, { mode: 'always' });
    const [plan] = (await planStep(ctx, null, 0, [])) as Plan[];
    expect(plan!.passage).toBeNull();
    expect(plan!.retrieve.note).toMatch(/no passages/);
  });

  it('ends the step with an abstaining marker when the corrector finds no reliable evidence', async () => {
    const corrector = {
      correct: async () => ({ action: 'incorrect' as const, passages: [], noEvidence: 'abstain' as const }),
    };
    const { ctx } = context({ generator: generator(), corrector }, { mode: 'always' });
    const marker = (await planStep(ctx, null, 0, [])) as Candidate;
    expect(marker.done).toBe(true);
    expect(marker.text).toBe('');
    expect(marker.correction?.noEvidence).toBe('abstain');
  });
});

describe('the relevance gate and the candidate budget', () => {
  const plans = (...ps: (typeof P1)[]): Plan[] =>
    ps.map((p) => ({ passage: scored(p), retrieve: { probs: null, retrieved: true, reason: 'always' } }));

  it('skips passages the evaluator judges below the gate, but always keeps the most relevant', async () => {
    const critic = new FakeCritic({ relevance: { p1: rel(0.3), p2: rel(0.2), p3: rel(0.1) } });
    const { ctx, events } = context({ generator: generator(), critic }, { relevanceGate: 0.5 });
    const kept = await gate(ctx, plans(P1, P2, P3), 0, null);
    expect(kept.planned.map((p) => p.passage?.id)).toEqual(['p1']);
    expect(ctx.tree.skipped?.map((s) => s.passage.id)).toEqual(['p2', 'p3']);
    expect(events.at(-1)?.type).toBe('gated');
  });

  it('spends what is left of the budget on the most relevant passages, never fewer than one', () => {
    const gated = { planned: plans(P1, P2, P3), rels: [rel(0.2), rel(0.9), rel(0.5)] };
    expect(withinBudget(gated, 3, 1).planned.map((p) => p.passage?.id)).toEqual(['p2', 'p3']);
    expect(withinBudget(gated, 3, 3).planned.map((p) => p.passage?.id)).toEqual(['p2']);
    expect(withinBudget(gated, 0, 10).planned).toHaveLength(3);
  });
});

describe('the evaluator critique', () => {
  it("reuses the gate's relevance and asks only for support, one judgement per passage", async () => {
    const critic = new FakeCritic();
    const { ctx } = context({ generator: generator(), critic }, {}, 'evaluator');
    const planned: Plan[] = [{ passage: scored(P1), retrieve: { probs: null, retrieved: true, reason: 'always' } }];
    const out = await evaluate(
      ctx,
      planned,
      [{ text: 'Lyon is on the Rhone.', tokenCount: 5, done: true }],
      [rel(0.7)],
    );
    expect(out[0]!.rel).toEqual(rel(0.7));
    expect(critic.calls.map((c) => c.kind)).toEqual(['support']);
  });

  it('says so when the evaluator answers for a different number of passages', async () => {
    const critic = { relevance: async () => [], support: async () => [] };
    const { ctx } = context({ generator: generator(), critic }, {}, 'evaluator');
    const planned: Plan[] = [{ passage: scored(P1), retrieve: { probs: null, retrieved: true, reason: 'always' } }];
    await expect(evaluate(ctx, planned, [{ text: 'x', tokenCount: 1, done: true }])).rejects.toThrow(CoreInputError);
  });
});

describe('expanding a beam item', () => {
  it('asks the generator only for the critiques the source reads', async () => {
    for (const [source, wanted] of [
      ['evaluator', false],
      ['generator', true],
      ['blend', true],
    ] as const) {
      const gen = generator();
      const { ctx } = context(
        { generator: gen, critic: new FakeCritic() },
        { mode: 'always', passagesPerStep: 1 },
        source,
      );
      await expand(ctx, null);
      expect(gen.requests[0]!.critiques).toEqual({ rel: wanted, sup: wanted });
    }
  });

  it('keeps a withheld candidate in the tree with its reason', async () => {
    const gen = new ScriptedGenerator({
      segments: {
        [scriptKey([], 'p1')]: {
          text: '',
          use: use(1),
          withheld: { reason: 'cut-off', detail: 'The model was stopped at its token limit.' },
        },
      },
    });
    const { ctx } = context({ generator: gen }, { mode: 'always', passagesPerStep: 1 });
    const [c] = await expand(ctx, null);
    expect(c!.withheld?.reason).toBe('cut-off');
    expect(c!.passage?.id).toBe('p1');
  });

  it('stops before its next port call once the signal is aborted', async () => {
    const ctrl = new AbortController();
    ctrl.abort();
    const { ctx } = context({ generator: generator() }, { mode: 'always' }, 'generator', ctrl.signal);
    await expect(expand(ctx, null)).rejects.toBeInstanceOf(Stop);
  });
});
