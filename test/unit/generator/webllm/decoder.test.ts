// The generator against the token-faithful web-llm double, once per tokenizer
// family: Qwen2.5 and Llama-3 (byte-level BPE) and Llama-2 (SentencePiece, as
// Phi-3.5 and Llama-2-based custom models), with real xgrammar masks.
import { describe, expect, it } from 'vitest';
import type { Passage, SegmentRequest } from '../../../../src/core/ports';
import type { ChatEngine } from '../../../../src/generator/webllm/engine';
import { EngineGenerator } from '../../../../src/generator/webllm/decoder';
import { GeneratorError } from '../../../../src/generator/errors';
import { FaithfulEngine, type FaithfulEngineOptions, type FaithfulReply } from '../../../doubles/faithful-engine';
import { FAMILIES } from '../../../doubles/token-vocab';

const passage: Passage = {
  id: 'd#0',
  docId: 'd',
  title: 'Lyon',
  text: 'Lyon is a city in France. It sits where the Rhone meets the Saone.',
  index: 0,
};
const seg = (over: Partial<SegmentRequest> = {}): SegmentRequest => ({
  question: 'Where is Lyon?',
  previous: [],
  passage,
  ...over,
});

const close = (got: readonly number[] | undefined, want: readonly number[], digits = 5) => {
  expect(got).toBeDefined();
  got!.forEach((g, i) => expect(g).toBeCloseTo(want[i]!, digits));
};

const full: FaithfulReply = {
  text: ' Lyon is in France.',
  slots: {
    rel: { ' relevant': 0.7, ' irrelevant': 0.3 },
    sup: { ' fully': 0.5, ' partially': 0.3, ' no': 0.2 },
    use: { ' 1': 0.05, ' 2': 0.05, ' 3': 0.1, ' 4': 0.3, ' 5': 0.5 },
    next: { ' retrieve': 0.2, ' continue': 0.2, ' done': 0.6 },
  },
};

describe.each(FAMILIES)('on the %s tokenizer', (family) => {
  async function setup(
    script: FaithfulEngineOptions['script'],
    opts: Omit<FaithfulEngineOptions, 'script' | 'family'> = {},
    gen = {},
  ) {
    const engine = await FaithfulEngine.create({ family, script, ...opts });
    const generator = new EngineGenerator(engine as unknown as ChatEngine, gen);
    return { engine, generator };
  }

  describe('prompted mode: one decode per candidate', () => {
    it('reads at each slot the probabilities the model put there', async () => {
      const { generator, engine } = await setup([full]);
      const [s] = await generator.generateSegments([seg()]);
      expect(s!.text).toBe('Lyon is in France.');
      close([s!.rel!.relevant, s!.rel!.irrelevant], [0.7, 0.3]);
      close([s!.sup!.full, s!.sup!.partial, s!.sup!.none], [0.5, 0.3, 0.2]);
      close(s!.use, [0.05, 0.05, 0.1, 0.3, 0.5]);
      expect(s!.done).toBe(true);
      expect(s!.problem).toBeUndefined();
      expect(engine.calls).toHaveLength(1); // critiques came from the same pass
      expect(s!.tokenCount).toBeGreaterThanOrEqual(4);
      expect(s!.tokenCount).toBeLessThanOrEqual(8);
      expect(s!.logprob).toBeLessThan(0);
    });

    it('adds up every spelling of an alternative, so a model preferring " Relevant" or " Fully" keeps its choice', async () => {
      const { generator, engine } = await setup([
        {
          ...full,
          slots: {
            ...full.slots,
            rel: { ' Relevant': 0.6, ' relevant': 0.1, ' irrelevant': 0.3 },
            sup: { ' Fully': 0.5, ' partially': 0.3, ' No': 0.2 },
          },
        },
      ]);
      const [s] = await generator.generateSegments([seg()]);
      close([s!.rel!.relevant, s!.rel!.irrelevant], [0.7, 0.3]);
      close([s!.sup!.full, s!.sup!.partial, s!.sup!.none], [0.5, 0.3, 0.2]);
      expect(engine.calls[0]!.call.grammar).toContain('" Fully"');
      expect(s!.problem).toBeUndefined();
    });

    it('only ever yields the slot group alternatives, renormalised over them', async () => {
      const { generator } = await setup([
        {
          ...full,
          slots: {
            ...full.slots,
            rel: { ' maybe': 0.9, ' relevant': 0.03, ' irrelevant': 0.07 },
            sup: { ' yes': 0.95, ' partially': 0.05 },
          },
        },
      ]);
      const [s] = await generator.generateSegments([seg()]);
      close([s!.rel!.relevant, s!.rel!.irrelevant], [0.3, 0.7]);
      expect(s!.sup!.partial).toBeGreaterThan(0.99);
      expect(s!.problem).toBeUndefined();
    });

    it('writes a candidate without a passage with utility only', async () => {
      const { generator } = await setup([
        { text: ' Lyon is in France.', slots: { use: { ' 3': 1 }, next: { ' continue': 1 } } },
      ]);
      const [s] = await generator.generateSegments([seg({ passage: null })]);
      expect(s!.rel).toBeUndefined();
      expect(s!.sup).toBeUndefined();
      expect(s!.use![2]).toBeGreaterThan(0.99);
      expect(s!.done).toBe(false);
    });

    it('marks a candidate cut off at the token limit instead of failing', async () => {
      const long = { ...full, text: ' word'.repeat(200) };
      const { generator } = await setup([long], {}, { maxSegmentTokens: 20 });
      const [s] = await generator.generateSegments([seg()]);
      expect(s!.problem).toMatch(/cut off at the token limit/);
      expect(s!.problem).toMatch(/sup slot/);
      expect(s!.sup).toBeUndefined();
      expect(s!.rel).toBeDefined();
      expect(s!.text.length).toBeGreaterThan(0);
    });

    it('does not call a complete reply cut off when its last token lands exactly on max_tokens', async () => {
      const reply = {
        ...full,
        text: ' Lyon is a city in France, where the Rhone meets the Saone, and it is known for its food and its old town.',
      };
      const probe = await setup([reply], {}, { maxSegmentTokens: 200 });
      await probe.generator.generateSegments([seg()]);
      const written = probe.engine.calls[0]!.ids.length; // the form's tokens, without the stop token
      const { generator, engine } = await setup([reply], {}, { maxSegmentTokens: written - 40 });
      const [s] = await generator.generateSegments([seg()]);
      expect(engine.calls[0]!.finish).toBe('length'); // what web-llm reports here
      expect(s!.problem).toBeUndefined();
      expect(s!.done).toBe(true);
      close(s!.use, [0.05, 0.05, 0.1, 0.3, 0.5]);
    });

    it('flags an answer that is only blanks', async () => {
      const { generator } = await setup([{ ...full, text: '   ' }]);
      const [s] = await generator.generateSegments([seg()]);
      expect(s!.text).toBe('');
      expect(s!.problem).toMatch(/missing answer text/);
    });

    it('turns an error string from the worker into a typed error with a way forward', async () => {
      const { generator } = await setup([{ error: 'Error: The WebGPU device was lost while loading the model.' }]);
      const err = await generator.generateSegments([seg()]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GeneratorError);
      expect((err as GeneratorError).kind).toBe('device-lost');
      expect((err as GeneratorError).suggestion).toMatch(/smaller model/);
    });

    it('streams the segment text as it is written, without labels', async () => {
      const { generator } = await setup([full]);
      const seen: string[] = [];
      const [s] = await generator.generateSegments([seg({ onText: (t) => seen.push(t) })]);
      expect(seen.length).toBeGreaterThan(2);
      expect(seen.at(-1)).toBe(s!.text);
      expect(seen.every((t) => !t.includes('Relevance') && !t.includes('\n'))).toBe(true);
      close([s!.rel!.relevant, s!.rel!.irrelevant], [0.7, 0.3]);
      close(s!.use, [0.05, 0.05, 0.1, 0.3, 0.5]);
    });

    it('answers the next retrieval decision from the candidate pass, with no extra call', async () => {
      const { generator, engine } = await setup([full]);
      const [s] = await generator.generateSegments([seg()]);
      const probs = await generator.decideRetrieval({ question: 'Where is Lyon?', previous: [s!.text] });
      expect(probs.retrieval).toBeCloseTo(0.2, 5);
      expect(probs.noRetrieval).toBeCloseTo(0.2, 5);
      expect(engine.calls).toHaveLength(1);
    });

    it('asks the model for the first retrieval decision and reads p(yes) vs p(no)', async () => {
      const { generator, engine } = await setup([{ slots: { decision: { ' yes': 0.35, ' no': 0.65 } } }]);
      const probs = await generator.decideRetrieval({ question: 'Where is Lyon?', previous: [] });
      expect(probs.retrieval).toBeCloseTo(0.35, 5);
      expect(probs.noRetrieval).toBeCloseTo(0.65, 5);
      expect(engine.calls[0]!.call.grammar).toMatch(/decision ::= " yes" \| " Yes" \| " no" \| " No"/);
    });

    it('counts prefilled and decoded tokens and calls from the engine usage', async () => {
      const { generator, engine } = await setup([full, full]);
      await generator.generateSegments([seg(), seg({ previous: ['Lyon is in France.'] })]);
      const cost = generator.cost();
      expect(cost.calls).toBe(2);
      expect(cost.promptTokens).toBe(engine.calls[0]!.promptTokens + engine.calls[1]!.promptTokens);
      expect(cost.decodedTokens).toBe(engine.calls[0]!.ids.length + engine.calls[1]!.ids.length);
      expect(engine.calls[1]!.promptTokens).toBeGreaterThan(engine.calls[0]!.promptTokens);
    });
  });

  describe("the critique is the model's own, whatever the answer says", () => {
    // Qwen2.5-Instruct ships repetition_penalty 1.1; set it for every family here.
    const penalised = { config: { repetition_penalty: 1.1, frequency_penalty: 0.5, presence_penalty: 0.5 } };
    const slots = {
      rel: { ' relevant': 0.6, ' irrelevant': 0.4 },
      sup: { ' fully': 0.4, ' no': 0.35, ' partially': 0.25 },
      use: { ' 1': 0.02, ' 2': 0.03, ' 3': 0.15, ' 4': 0.45, ' 5': 0.35 },
      next: { ' retrieve': 0.3, ' continue': 0.3, ' done': 0.4 },
    };

    it('reads the same slot distribution when the answer contains "2004", " no" or " relevant"', async () => {
      const plain = await setup([{ text: ' It opened long ago.', slots }], penalised);
      const echoing = await setup(
        [{ text: ' It is relevant, no doubt: it opened in 2004, fully 4 times.', slots }],
        penalised,
      );
      const [a] = await plain.generator.generateSegments([seg()]);
      const [b] = await echoing.generator.generateSegments([seg()]);
      close(b!.use, a!.use!);
      close([b!.sup!.full, b!.sup!.partial, b!.sup!.none], [a!.sup!.full, a!.sup!.partial, a!.sup!.none]);
      close([b!.rel!.relevant], [a!.rel!.relevant]);
      close(a!.use, [0.02, 0.03, 0.15, 0.45, 0.35]);
      const req = echoing.engine.calls[0]!.request;
      expect([req.repetition_penalty, req.frequency_penalty, req.presence_penalty]).toEqual([1, 0, 0]);
      expect(req.logit_bias).toBeUndefined();
    });
  });

  describe('text the tokens do not spell', () => {
    it('reads every slot of a reply with accents and CJK, streamed or not, and keeps the text exact', async () => {
      const reply: FaithfulReply = {
        ...full,
        text: ' Café Müller 東京 opened in 1975.',
        slots: { ...full.slots, next: { ' retrieve': 0.1, ' continue': 0.7, ' done': 0.2 } },
      };
      for (const onText of [undefined, () => {}]) {
        const { generator } = await setup([reply]);
        const [s] = await generator.generateSegments([seg(onText ? { onText } : {})]);
        expect(s!.text).toBe('Café Müller 東京 opened in 1975.');
        expect(s!.problem).toBeUndefined();
        close([s!.rel!.relevant, s!.rel!.irrelevant], [0.7, 0.3]);
        close([s!.sup!.full, s!.sup!.partial, s!.sup!.none], [0.5, 0.3, 0.2]);
        close(s!.use, [0.05, 0.05, 0.1, 0.3, 0.5]);
        expect(s!.done).toBe(false);
        expect(s!.tokenCount).toBeGreaterThan(4);
      }
    });
  });

  describe('abort and determinism', () => {
    it('aborts a decode mid-way and the engine answers the next question', async () => {
      const { generator, engine } = await setup([{ ...full, text: ' word'.repeat(60) }, full], { tokenDelayMs: 2 });
      const ctrl = new AbortController();
      const pending = generator.generateSegments([
        seg({ signal: ctrl.signal, onText: (t) => t.length > 20 && ctrl.abort() }),
        seg(),
      ]);
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
      expect(engine.calls[0]!.finish).toBe('abort');
      expect(engine.calls).toHaveLength(1); // the rest of the batch was not started
      const [next] = await generator.generateSegments([seg()]);
      expect(next!.problem).toBeUndefined();
      expect(next!.text).toBe('Lyon is in France.');
    });

    it('decodes greedily by default while reporting the model probabilities (not one-hot)', async () => {
      const { generator, engine } = await setup([full]);
      const [s] = await generator.generateSegments([seg()]);
      expect(engine.calls[0]!.request.temperature).toBe(1);
      expect(engine.calls[0]!.request.top_p).toBeLessThanOrEqual(1e-3);
      expect(s!.rel!.relevant).toBeCloseTo(0.7, 5);
    });

    it('gives the same tree for the same question, also when sampling with a fixed seed', async () => {
      const run = async (opts: object) => {
        const { generator } = await setup(() => full, {}, opts);
        return generator.generateSegments([seg(), seg({ previous: ['x'] }), seg({ passage: null })]);
      };
      expect(await run({})).toEqual(await run({}));
      expect(await run({ temperature: 0.8, seed: 7 })).toEqual(await run({ temperature: 0.8, seed: 7 }));
    });
  });

  describe('writer', () => {
    it('follows a free instruction and counts the call', async () => {
      const { generator, engine } = await setup([{ text: '  capital of France  ' }]);
      expect(await generator.write('Rewrite the query: what is the capital of France?')).toBe('capital of France');
      expect(engine.calls[0]!.call.grammar).toBeUndefined();
      expect(generator.cost().calls).toBe(1);
    });
  });

  describe('native mode: reflection tokens read directly', () => {
    const native = { native: true };
    const answer: FaithfulReply = {
      text: '[Relevant] Lyon is a city in France.[Fully supported][Utility:5]',
      tokenAlternatives: {
        '[Relevant]': { '[Relevant]': 0.8, '[Irrelevant]': 0.2 },
        '[Fully supported]': {
          '[Fully supported]': 0.7,
          '[Partially supported]': 0.2,
          '[No support / Contradictory]': 0.1,
        },
        '[Utility:5]': { '[Utility:5]': 0.6, '[Utility:4]': 0.3, '[Utility:3]': 0.1 },
      },
    };

    it('reads each group from the top log-probs where the model wrote it', async () => {
      const { generator, engine } = await setup([answer], native, { native: true });
      const [s] = await generator.generateSegments([seg()]);
      expect(engine.calls[0]!.call.prompt).toContain('[Retrieval]<paragraph>Lyon\nLyon is a city');
      expect(s!.text).toBe('Lyon is a city in France.');
      close([s!.rel!.relevant, s!.rel!.irrelevant], [0.8, 0.2]);
      close([s!.sup!.full, s!.sup!.partial, s!.sup!.none], [0.7, 0.2, 0.1]);
      close(s!.use, [0, 0, 0.1, 0.3, 0.6]);
      expect(s!.done).toBe(true);
      expect(s!.problem).toBeUndefined();
      const req = engine.calls[0]!.request;
      expect([req.repetition_penalty, req.frequency_penalty, req.presence_penalty]).toEqual([1, 0, 0]);
    });

    it('marks a reply without its reflection tokens', async () => {
      const { generator } = await setup([{ text: ' Lyon is in France.' }], native, { native: true });
      const [s] = await generator.generateSegments([seg()]);
      expect(s!.problem).toMatch(/missing relevance token.*support token.*utility token/);
    });

    it('reads the first retrieval decision from the first token', async () => {
      const { generator } = await setup(
        [{ text: '[Retrieval]', tokenAlternatives: { '[Retrieval]': { '[Retrieval]': 0.7, '[No Retrieval]': 0.3 } } }],
        native,
        { native: true },
      );
      const p = await generator.decideRetrieval({ question: 'Where is Lyon?', previous: [] });
      // Raw probabilities (the core normalises the group): the rest of the vocabulary keeps a sliver.
      expect(p.retrieval / (p.retrieval + p.noRetrieval)).toBeCloseTo(0.7, 5);
      expect(p.retrieval).toBeCloseTo(0.7, 2);
      expect(p.noRetrieval).toBeCloseTo(0.3, 2);
    });

    it('continues when only [Continue to Use Evidence] is among the top 5', async () => {
      const { generator } = await setup([{ text: '[Continue to Use Evidence]' }], native, { native: true });
      const p = await generator.decideRetrieval({ question: 'Where is Lyon?', previous: ['Lyon is in France.'] });
      expect(p).toEqual({ retrieval: 0, noRetrieval: 0, continueEvidence: expect.closeTo(1, 2) });
    });

    it('ends a middle segment at [Retrieval] without utility or support, keeps its exact text and the next decision', async () => {
      const { generator, engine } = await setup(
        [
          {
            text: '[Relevant] Café Müller 東京 opened in 1975.[Retrieval]<paragraph>more',
            tokenAlternatives: {
              '[Retrieval]': { '[Retrieval]': 0.6, '[No Retrieval]': 0.3, '[Continue to Use Evidence]': 0.1 },
            },
          },
        ],
        native,
        { native: true },
      );
      const [s] = await generator.generateSegments([seg()]);
      expect(s!.text).toBe('Café Müller 東京 opened in 1975.');
      expect(s!.problem).toBeUndefined();
      expect(s!.done).toBe(false);
      expect(s!.use).toBeUndefined();
      const p = await generator.decideRetrieval({ question: 'Where is Lyon?', previous: [s!.text] });
      expect(p.retrieval).toBeCloseTo(0.6, 5);
      expect(p.continueEvidence).toBeCloseTo(0.1, 5);
      expect(engine.calls).toHaveLength(1);
    });

    it('reads no relevance or support for a segment written without a passage', async () => {
      const { generator } = await setup(
        [{ text: '[Relevant] Lyon is in France.[Fully supported][Utility:4]' }],
        native,
        { native: true },
      );
      const [s] = await generator.generateSegments([seg({ passage: null })]);
      expect(s!.rel).toBeUndefined();
      expect(s!.sup).toBeUndefined();
      expect(s!.use![3]).toBeGreaterThan(0.99);
      expect(s!.text).toBe('Lyon is in France.');
    });

    it('expects no support token after [Irrelevant]', async () => {
      const { generator } = await setup(
        [
          {
            text: '[Irrelevant] Lyon is in France.[Utility:2]',
            tokenAlternatives: { '[Irrelevant]': { '[Irrelevant]': 0.9, '[Relevant]': 0.1 } },
          },
        ],
        native,
        { native: true },
      );
      const [s] = await generator.generateSegments([seg()]);
      expect(s!.problem).toBeUndefined();
      expect(s!.sup).toBeUndefined();
      close([s!.rel!.relevant, s!.rel!.irrelevant], [0.1, 0.9]);
      expect(s!.done).toBe(true);
    });
  });
});

describe('settings', () => {
  it('rejects settings the engine would reject, before any decode', async () => {
    const engine = await FaithfulEngine.create({ family: 'qwen2.5', script: [] });
    expect(() => new EngineGenerator(engine as unknown as ChatEngine, { temperature: -1 })).toThrow(/Temperature/);
    expect(() => new EngineGenerator(engine as unknown as ChatEngine, { seed: 1.5 })).toThrow(/seed/);
  });
});
