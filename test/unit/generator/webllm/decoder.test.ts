// The generator against the token-faithful web-llm double, once per tokenizer
// family: Qwen2.5 and Llama-3 (byte-level BPE) and Llama-2 (SentencePiece, as
// Phi-3.5 and Llama-2-based custom models), with real xgrammar masks.
import { describe, expect, it } from 'vitest';
import type { Passage, SegmentRequest } from '../../../../src/core/ports';
import type { ChatEngine } from '../../../../src/generator/webllm/engine';
import { EngineGenerator } from '../../../../src/generator/webllm/decoder';
import { GeneratorError } from '../../../../src/generator/errors';
import { JUDGE_QUESTION } from '../../../../src/generator/prompts';
import {
  FaithfulEngine,
  type FaithfulEngineOptions,
  type FaithfulReply,
  type FaithfulScript,
} from '../../../doubles/faithful-engine';
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

/** The critiques a scripted model gives, by slot. */
interface Grades {
  rel?: Record<string, number>;
  sup?: Record<string, number>;
  use?: Record<string, number>;
  decision?: Record<string, number>;
}

const grades: Grades = {
  rel: { Yes: 0.7, No: 0.3 },
  sup: { Yes: 0.5, Partially: 0.3, No: 0.2 },
  use: { '1': 0.05, '2': 0.05, '3': 0.1, '4': 0.3, '5': 0.5 },
};

/** A model that answers the answer turn with `answer` and each critique turn with its grade. */
function turns(answer: string | FaithfulReply, g: Grades = grades): FaithfulScript {
  return (call) => {
    for (const name of ['rel', 'sup', 'use', 'decision'] as const)
      if (call.grammar?.includes(`${name} ::=`)) return { slots: { [name]: g[name] ?? {} } };
    return typeof answer === 'string' ? { text: answer } : answer;
  };
}

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

  describe('prompted mode: the answer, then one short turn per critique', () => {
    it('writes the answer as a chat reply and reads each critique where its word begins', async () => {
      const { generator, engine } = await setup(turns('Lyon is in France.'));
      const [s] = await generator.generateSegments([seg()]);
      expect(s!.text).toBe('Lyon is in France.');
      close([s!.rel!.relevant, s!.rel!.irrelevant], [0.7, 0.3]);
      close([s!.sup!.full, s!.sup!.partial, s!.sup!.none], [0.5, 0.3, 0.2]);
      close(s!.use, [0.05, 0.05, 0.1, 0.3, 0.5]);
      expect(s!.done).toBe(true);
      expect(s!.problem).toBeUndefined();
      expect(s!.withheld).toBeUndefined();
      // The answer turn has no grammar: the model writes as it would to a person.
      expect(engine.calls[0]!.call.grammar).toBeUndefined();
      expect(engine.calls[0]!.call.user).toContain('Passage from "Lyon":\nLyon is a city in France.');
      expect(engine.calls[0]!.call.user).toContain('Question: Where is Lyon?');
      expect(engine.calls).toHaveLength(4); // answer, utility, relevance, support
      expect(s!.tokenCount).toBeGreaterThanOrEqual(4);
      expect(s!.tokenCount).toBeLessThanOrEqual(8);
      expect(s!.logprob).toBeLessThan(0);
    });

    it('asks only for the critiques the critique source reads', async () => {
      const { generator, engine } = await setup(turns('Lyon is in France.'));
      const [s] = await generator.generateSegments([seg({ critiques: { rel: false, sup: false } })]);
      expect(engine.calls).toHaveLength(2); // answer and utility
      expect(s!.rel).toBeUndefined();
      expect(s!.sup).toBeUndefined();
      close(s!.use, [0.05, 0.05, 0.1, 0.3, 0.5]);
    });

    it('adds up every spelling of an alternative, so a model preferring "yes" keeps its choice', async () => {
      const { generator, engine } = await setup(
        turns('Lyon is in France.', {
          ...grades,
          rel: { Yes: 0.6, yes: 0.1, No: 0.3 },
          sup: { yes: 0.5, Partially: 0.3, no: 0.2 },
        }),
      );
      const [s] = await generator.generateSegments([seg()]);
      close([s!.rel!.relevant, s!.rel!.irrelevant], [0.7, 0.3]);
      close([s!.sup!.full, s!.sup!.partial, s!.sup!.none], [0.5, 0.3, 0.2]);
      expect(engine.calls.some((c) => c.call.grammar?.includes('"yes"'))).toBe(true);
      expect(s!.problem).toBeUndefined();
    });

    it('only ever yields the slot group alternatives, renormalised over them', async () => {
      const { generator } = await setup(
        turns('Lyon is in France.', {
          ...grades,
          rel: { Maybe: 0.9, Yes: 0.03, No: 0.07 },
          sup: { Sure: 0.95, Partially: 0.05 },
        }),
      );
      const [s] = await generator.generateSegments([seg()]);
      close([s!.rel!.relevant, s!.rel!.irrelevant], [0.3, 0.7]);
      expect(s!.sup!.partial).toBeGreaterThan(0.99);
      expect(s!.problem).toBeUndefined();
    });

    it('writes a candidate without a passage with utility only', async () => {
      const { generator } = await setup(turns('Lyon is in France.', { use: { '3': 1 } }));
      const [s] = await generator.generateSegments([seg({ passage: null })]);
      expect(s!.rel).toBeUndefined();
      expect(s!.sup).toBeUndefined();
      expect(s!.use![2]).toBeGreaterThan(0.99);
    });

    it('stops the answer after two sentences, and a stopped answer has more to say', async () => {
      const { generator, engine } = await setup(
        turns('Lyon is in France. It sits on two rivers. It is known for its food. Its old town is large.'),
      );
      const [s] = await generator.generateSegments([seg()]);
      expect(s!.text).toBe('Lyon is in France. It sits on two rivers.');
      expect(s!.done).toBe(false);
      expect(s!.withheld).toBeUndefined();
      // Stopped as the third sentence began, not at the token limit.
      expect(engine.calls[0]!.ids.length).toBeLessThan(30);
    });

    it('withholds a candidate cut off at the token limit before a whole sentence, and asks it no critique', async () => {
      const { generator, engine } = await setup(turns(' word'.repeat(200)), {}, { maxSegmentTokens: 20 });
      const [s] = await generator.generateSegments([seg()]);
      expect(s!.withheld?.reason).toBe('cut-off');
      expect(s!.text).toBe('');
      expect(engine.calls).toHaveLength(1);
    });

    it('keeps the whole sentences of a reply cut off at the token limit', async () => {
      const { generator } = await setup(
        turns('Lyon is in France. It sits where the Rhone' + ' and'.repeat(100)),
        {},
        { maxSegmentTokens: 24 },
      );
      const [s] = await generator.generateSegments([seg()]);
      expect(s!.text).toBe('Lyon is in France.');
      expect(s!.withheld).toBeUndefined();
      expect(s!.done).toBe(false);
    });

    it("withholds the prompt's own words, a refusal, and a repeat of the answer so far", async () => {
      const { generator } = await setup((call) =>
        call.grammar
          ? turns('')(call)
          : {
              text: call.user.includes('So far')
                ? 'Lyon is in France.'
                : call.user.includes('Where is Paris?')
                  ? 'The passage does not say where Paris is.'
                  : "You answer questions about the user's documents from the passage they give you.",
            },
      );
      const [copied, declined, repeated] = await generator.generateSegments([
        seg(),
        seg({ question: 'Where is Paris?' }),
        seg({ previous: ['Lyon is in France.'] }),
      ]);
      expect(copied!.withheld?.reason).toBe('form-text');
      expect(declined!.withheld?.reason).toBe('declined');
      expect(repeated!.withheld?.reason).toBe('repeat');
    });

    it('turns an error string from the worker into a typed error with a way forward', async () => {
      const { generator } = await setup([{ error: 'Error: The WebGPU device was lost while loading the model.' }]);
      const err = await generator.generateSegments([seg()]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GeneratorError);
      expect((err as GeneratorError).kind).toBe('device-lost');
      expect((err as GeneratorError).suggestion).toMatch(/smaller model/);
    });

    it('streams the answer text as it is written', async () => {
      const { generator } = await setup(turns('Lyon is in France.'));
      const seen: string[] = [];
      const [s] = await generator.generateSegments([seg({ onText: (t) => seen.push(t) })]);
      expect(seen.length).toBeGreaterThan(2);
      expect(seen.at(-1)).toBe(s!.text);
      close([s!.rel!.relevant, s!.rel!.irrelevant], [0.7, 0.3]);
      close(s!.use, [0.05, 0.05, 0.1, 0.3, 0.5]);
    });

    it('asks the model for the retrieval decision and reads p(yes) vs p(no)', async () => {
      const { generator, engine } = await setup(turns('', { decision: { Yes: 0.35, No: 0.65 } }));
      const probs = await generator.decideRetrieval({ question: 'Where is Lyon?', previous: [] });
      expect(probs.retrieval).toBeCloseTo(0.35, 5);
      expect(probs.noRetrieval).toBeCloseTo(0.65, 5);
      expect(engine.calls[0]!.call.grammar).toMatch(/decision ::= "Yes" \| "yes" \| "No" \| "no"/);
    });

    it('judges passages for the re-rank: asks of each whether it answers the question, and reads p(Yes)', async () => {
      const paris: Passage = { ...passage, id: 'd#1', title: 'Paris', text: 'Paris is the capital of France.' };
      const { generator, engine } = await setup((call) =>
        call.grammar?.includes('rel ::=')
          ? { slots: { rel: call.user?.includes('Paris') ? { Yes: 0.1, No: 0.9 } : { Yes: 0.8, No: 0.2 } } }
          : { text: '' },
      );
      close(await generator.judgePassages('Where is Lyon?', [passage, paris]), [0.8, 0.1]);
      expect(engine.calls).toHaveLength(2);
      expect(engine.calls[0]!.call.user).toContain('Passage from "Lyon":\nLyon is a city in France.');
      expect(engine.calls[0]!.call.user).toContain(JUDGE_QUESTION);
      expect(engine.calls[1]!.call.user).toContain('Passage from "Paris"');
      expect(generator.cost().calls).toBe(2);
    });

    it('counts prefilled and decoded tokens and calls from the engine usage', async () => {
      const { generator, engine } = await setup(turns('Lyon is in France.'));
      await generator.generateSegments([seg(), seg({ previous: ['It has two rivers.'] })]);
      const cost = generator.cost();
      expect(cost.calls).toBe(engine.calls.length);
      expect(cost.promptTokens).toBe(engine.calls.reduce((n, c) => n + c.promptTokens, 0));
      expect(cost.decodedTokens).toBe(engine.calls.reduce((n, c) => n + c.ids.length, 0));
      expect(engine.calls[4]!.promptTokens).toBeGreaterThan(engine.calls[0]!.promptTokens);
    });
  });

  describe("the critique is the model's own, whatever the answer says", () => {
    // Qwen2.5-Instruct ships repetition_penalty 1.1; set it for every family here.
    const penalised = { config: { repetition_penalty: 1.1, frequency_penalty: 0.5, presence_penalty: 0.5 } };
    const g: Grades = {
      rel: { Yes: 0.6, No: 0.4 },
      sup: { Yes: 0.4, No: 0.35, Partially: 0.25 },
      use: { '1': 0.02, '2': 0.03, '3': 0.15, '4': 0.45, '5': 0.35 },
    };

    it('reads the same critiques when the answer contains "2004", "No" or "Yes"', async () => {
      const plain = await setup(turns('It opened long ago.', g), penalised);
      const echoing = await setup(turns('Yes, No doubt: it opened in 2004, fully 4 times.', g), penalised);
      const [a] = await plain.generator.generateSegments([seg()]);
      const [b] = await echoing.generator.generateSegments([seg()]);
      close(b!.use, a!.use!);
      close([b!.sup!.full, b!.sup!.partial, b!.sup!.none], [a!.sup!.full, a!.sup!.partial, a!.sup!.none]);
      close([b!.rel!.relevant], [a!.rel!.relevant]);
      close(a!.use, [0.02, 0.03, 0.15, 0.45, 0.35]);
      for (const c of echoing.engine.calls) {
        const req = c.request;
        expect([req.repetition_penalty, req.frequency_penalty, req.presence_penalty]).toEqual([1, 0, 0]);
        expect(req.logit_bias).toBeUndefined();
      }
    });
  });

  describe('text the tokens do not spell', () => {
    it('keeps an answer with accents and CJK exact, streamed or not, and reads its critiques', async () => {
      for (const onText of [undefined, () => {}]) {
        const { generator } = await setup(turns('Café Müller 東京 opened in 1975.'));
        const [s] = await generator.generateSegments([seg(onText ? { onText } : {})]);
        expect(s!.text).toBe('Café Müller 東京 opened in 1975.');
        expect(s!.problem).toBeUndefined();
        close([s!.rel!.relevant, s!.rel!.irrelevant], [0.7, 0.3]);
        close([s!.sup!.full, s!.sup!.partial, s!.sup!.none], [0.5, 0.3, 0.2]);
        close(s!.use, [0.05, 0.05, 0.1, 0.3, 0.5]);
        expect(s!.tokenCount).toBeGreaterThan(4);
      }
    });
  });

  describe('abort and determinism', () => {
    it('aborts a decode mid-way and the engine answers the next question', async () => {
      const script = turns('Lyon is in France.');
      let first = true;
      const { generator, engine } = await setup(
        (call) => {
          if (first && !call.grammar) {
            first = false;
            return { text: ' word'.repeat(60) };
          }
          return script(call);
        },
        { tokenDelayMs: 2 },
      );
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
      const { generator, engine } = await setup(turns('Lyon is in France.'));
      const [s] = await generator.generateSegments([seg()]);
      expect(engine.calls[0]!.request.temperature).toBe(1);
      expect(engine.calls[0]!.request.top_p).toBeLessThanOrEqual(1e-3);
      expect(s!.rel!.relevant).toBeCloseTo(0.7, 5);
    });

    it('gives the same tree for the same question, also when sampling with a fixed seed', async () => {
      const run = async (opts: object) => {
        const { generator } = await setup(turns('Lyon is in France.'), {}, opts);
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

    it('is not asked to judge passages for the re-rank (the cross-encoder does)', async () => {
      const { generator, engine } = await setup([answer], native, { native: true });
      await expect(generator.judgePassages('Where is Lyon?', [passage])).rejects.toBeInstanceOf(GeneratorError);
      expect(engine.calls).toHaveLength(0);
    });

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

    it('ends a middle segment at [Retrieval] after its support token, without utility, keeps its exact text and the next decision', async () => {
      const { generator, engine } = await setup(
        [
          {
            text: '[Relevant] Café Müller 東京 opened in 1975.[Partially supported][Retrieval]<paragraph>more',
            tokenAlternatives: {
              '[Partially supported]': { '[Partially supported]': 0.6, '[Fully supported]': 0.4 },
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
      close([s!.sup!.full, s!.sup!.partial, s!.sup!.none], [0.4, 0.6, 0]);
      expect(s!.use).toBeUndefined();
      const p = await generator.decideRetrieval({ question: 'Where is Lyon?', previous: [s!.text] });
      expect(p.retrieval).toBeCloseTo(0.6, 5);
      expect(p.continueEvidence).toBeCloseTo(0.1, 5);
      expect(engine.calls).toHaveLength(1);
    });

    it('marks a middle segment after [Relevant] that skips its support token (support follows every relevant segment)', async () => {
      const { generator } = await setup([{ text: '[Relevant] Lyon is in France.[Retrieval]' }], native, {
        native: true,
      });
      const [s] = await generator.generateSegments([seg()]);
      expect(s!.problem).toMatch(/missing support token/);
      expect(s!.problem).not.toMatch(/utility/);
      expect(s!.done).toBe(false);
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
