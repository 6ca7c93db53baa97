import { describe, expect, it } from 'vitest';
import type { Passage, SegmentRequest } from '../../../src/core/ports';
import type { ChatEngine } from '../../../src/generator/engine';
import { EngineGenerator } from '../../../src/generator/engine-generator';
import { GeneratorError } from '../../../src/generator/errors';
import { ScriptedEngine, type ScriptedEngineOptions, type ScriptedReply } from '../../doubles/scripted-engine';

const passage: Passage = { id: 'd#0', docId: 'd', title: 'Lyon', text: 'Lyon is a city in France. It sits where the Rhone meets the Saone.', index: 0 };
const seg = (over: Partial<SegmentRequest> = {}): SegmentRequest => ({ question: 'Where is Lyon?', previous: [], passage, ...over });

function setup(script: ScriptedReply[] | ScriptedEngineOptions['script'], opts: Omit<ScriptedEngineOptions, 'script'> = {}, gen = {}) {
  const engine = new ScriptedEngine({ script, ...opts });
  const generator = new EngineGenerator(engine as unknown as ChatEngine, gen);
  return { engine, generator };
}

const close = (got: readonly number[] | undefined, want: readonly number[]) => {
  expect(got).toBeDefined();
  got!.forEach((g, i) => expect(g).toBeCloseTo(want[i]!, 6));
};

const full: ScriptedReply = {
  text: 'Lyon is in France.',
  slots: {
    rel: { ' relevant': 0.7, ' irrelevant': 0.3 },
    sup: { ' fully': 0.5, ' partially': 0.3, ' no': 0.2 },
    use: { ' 1': 0.05, ' 2': 0.05, ' 3': 0.1, ' 4': 0.3, ' 5': 0.5 },
    next: { ' retrieve': 0.2, ' continue': 0.2, ' done': 0.6 },
  },
};

describe('prompted mode: one decode per candidate', () => {
  it('reads at each slot exactly the probabilities the engine put there', async () => {
    const { generator, engine } = setup([full]);
    const [s] = await generator.generateSegments([seg()]);
    expect(s!.text).toBe('Lyon is in France.');
    close([s!.rel!.relevant, s!.rel!.irrelevant], [0.7, 0.3]);
    close([s!.sup!.full, s!.sup!.partial, s!.sup!.none], [0.5, 0.3, 0.2]);
    close(s!.use, [0.05, 0.05, 0.1, 0.3, 0.5]);
    expect(s!.done).toBe(true);
    expect(s!.problem).toBeUndefined();
    expect(engine.calls).toHaveLength(1); // critiques came from the same pass
    expect(s!.tokenCount).toBe(5); // ' Lyon',' is',' in',' France','.'
    expect(s!.logprob).toBeLessThan(0);
  });

  it('reads slots whose alternatives span several tokens or share a first token', async () => {
    const split = { ' irrelevant': [' ir', 'relevant'], ' 1': [' ', '1'], ' 2': [' ', '2'], ' 3': [' ', '3'], ' 4': [' ', '4'], ' 5': [' ', '5'] };
    const { generator } = setup([{ ...full, slots: { ...full.slots, rel: { ' relevant': 0.2, ' irrelevant': 0.8 } } }], { split });
    const [s] = await generator.generateSegments([seg()]);
    close([s!.rel!.relevant, s!.rel!.irrelevant], [0.2, 0.8]);
    close(s!.use, [0.05, 0.05, 0.1, 0.3, 0.5]);
  });

  it('only ever yields the slot group alternatives, renormalised over them', async () => {
    const { generator } = setup([
      { ...full, slots: { ...full.slots, rel: { ' maybe': 0.9, ' relevant': 0.03, ' irrelevant': 0.07 }, sup: { ' yes': 0.95, ' partially': 0.05 } } },
    ]);
    const [s] = await generator.generateSegments([seg()]);
    close([s!.rel!.relevant, s!.rel!.irrelevant], [0.3, 0.7]);
    expect(s!.sup!.partial).toBeGreaterThan(0.99);
    expect(s!.problem).toBeUndefined();
  });

  it('writes a candidate without a passage with utility only', async () => {
    const { generator } = setup([{ text: 'Lyon is in France.', slots: { use: { ' 3': 1 }, next: { ' continue': 1 } } }]);
    const [s] = await generator.generateSegments([seg({ passage: null })]);
    expect(s!.rel).toBeUndefined();
    expect(s!.sup).toBeUndefined();
    expect(s!.use![2]).toBeGreaterThan(0.99);
    expect(s!.done).toBe(false);
  });

  it('marks a candidate cut off at the token limit instead of failing', async () => {
    const long = { ...full, text: 'word '.repeat(200).trim() };
    const { generator } = setup([long], {}, { maxSegmentTokens: 20 });
    const [s] = await generator.generateSegments([seg()]);
    expect(s!.problem).toMatch(/cut off at the token limit/);
    expect(s!.problem).toMatch(/sup slot/);
    expect(s!.sup).toBeUndefined();
    expect(s!.rel).toBeDefined();
    expect(s!.text.length).toBeGreaterThan(0);
  });

  it('turns an error string from the worker into a typed error with a way forward', async () => {
    const { generator } = setup([{ error: 'Error: The WebGPU device was lost while loading the model.' }]);
    const err = await generator.generateSegments([seg()]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GeneratorError);
    expect((err as GeneratorError).kind).toBe('device-lost');
    expect((err as GeneratorError).suggestion).toMatch(/smaller model/);
  });

  it('streams the segment text as it is written, without labels', async () => {
    const { generator } = setup([full]);
    const seen: string[] = [];
    const [s] = await generator.generateSegments([seg({ onText: (t) => seen.push(t) })]);
    expect(seen.length).toBeGreaterThan(2);
    expect(seen.at(-1)).toBe(s!.text);
    expect(seen.every((t) => !t.includes('Relevance') && !t.includes('\n'))).toBe(true);
    expect(s!.rel!.relevant).toBeCloseTo(0.7, 6); // streaming keeps every token's log-probs
  });

  it('answers the next retrieval decision from the candidate pass, with no extra call', async () => {
    const { generator, engine } = setup([full]);
    const [s] = await generator.generateSegments([seg()]);
    const probs = await generator.decideRetrieval({ question: 'Where is Lyon?', previous: [s!.text] });
    expect(probs.retrieval).toBeCloseTo(0.2, 6);
    expect(probs.noRetrieval).toBeCloseTo(0.2, 6);
    expect(engine.calls).toHaveLength(1);
  });

  it('asks the model for the first retrieval decision and reads p(yes) vs p(no)', async () => {
    const { generator, engine } = setup([{ slots: { decision: { ' yes': 0.35, ' no': 0.65 } } }]);
    const probs = await generator.decideRetrieval({ question: 'Where is Lyon?', previous: [] });
    expect(probs.retrieval).toBeCloseTo(0.35, 6);
    expect(probs.noRetrieval).toBeCloseTo(0.65, 6);
    expect(engine.calls[0]!.call.grammar).toMatch(/decision ::= " yes" \| " no"/);
  });

  it('counts prefilled and decoded tokens and calls from the engine usage', async () => {
    const { generator, engine } = setup([full, full]);
    await generator.generateSegments([seg(), seg({ previous: ['Lyon is in France.'] })]);
    const cost = generator.cost();
    expect(cost.calls).toBe(2);
    expect(cost.promptTokens).toBe(engine.calls[0]!.promptTokens + engine.calls[1]!.promptTokens);
    expect(cost.decodedTokens).toBe(engine.calls[0]!.completionTokens + engine.calls[1]!.completionTokens);
    expect(engine.calls[1]!.promptTokens).toBeGreaterThan(engine.calls[0]!.promptTokens);
  });
});

describe('abort and determinism', () => {
  it('aborts a decode mid-way and the engine answers the next question', async () => {
    const { generator, engine } = setup([{ ...full, text: 'word '.repeat(60).trim() }, full], { tokenDelayMs: 2 });
    const ctrl = new AbortController();
    const pending = generator.generateSegments([seg({ signal: ctrl.signal, onText: (t) => t.length > 20 && ctrl.abort() }), seg()]);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(engine.calls[0]!.finish).toBe('abort');
    expect(engine.calls).toHaveLength(1); // the rest of the batch was not started
    const [next] = await generator.generateSegments([seg()]);
    expect(next!.problem).toBeUndefined();
    expect(next!.text).toBe('Lyon is in France.');
  });

  it('decodes greedily by default while reporting the model probabilities (not one-hot)', async () => {
    const { generator, engine } = setup([full]);
    const [s] = await generator.generateSegments([seg()]);
    expect(engine.calls[0]!.temperature).toBe(1);
    expect(engine.calls[0]!.topP).toBeLessThanOrEqual(1e-3);
    expect(s!.rel!.relevant).toBeCloseTo(0.7, 6);
  });

  it('gives the same tree for the same question, also when sampling with a fixed seed', async () => {
    const run = async (opts: object) => {
      const { generator } = setup(() => full, {}, opts);
      return generator.generateSegments([seg(), seg({ previous: ['x'] }), seg({ passage: null })]);
    };
    expect(await run({})).toEqual(await run({}));
    expect(await run({ temperature: 0.8, seed: 7 })).toEqual(await run({ temperature: 0.8, seed: 7 }));
  });

  it('rejects settings the engine would reject, before any decode', () => {
    expect(() => new EngineGenerator(new ScriptedEngine() as unknown as ChatEngine, { temperature: -1 })).toThrow(/Temperature/);
    expect(() => new EngineGenerator(new ScriptedEngine() as unknown as ChatEngine, { seed: 1.5 })).toThrow(/seed/);
  });
});

describe('writer', () => {
  it('follows a free instruction and counts the call', async () => {
    const { generator, engine } = setup([{ text: '  capital of France  ' }]);
    expect(await generator.write('Rewrite the query: what is the capital of France?')).toBe('capital of France');
    expect(engine.calls[0]!.call.grammar).toBeUndefined();
    expect(generator.cost().calls).toBe(1);
  });
});

describe('native mode: reflection tokens read directly', () => {
  it('reads each group from the top log-probs where the model wrote it', async () => {
    const { generator, engine } = setup(undefined, {}, { native: true });
    const [s] = await generator.generateSegments([seg()]);
    expect(engine.calls[0]!.call.prompt).toContain('[Retrieval]<paragraph>Lyon\nLyon is a city');
    expect(s!.text).toBe('Lyon is a city in France.');
    close([s!.rel!.relevant, s!.rel!.irrelevant], [0.8, 0.2]);
    close([s!.sup!.full, s!.sup!.partial, s!.sup!.none], [0.7, 0.2, 0.1]);
    close(s!.use, [0, 0, 0.1, 0.3, 0.6]);
  });

  it('marks a reply without its reflection tokens', async () => {
    const { generator } = setup([{ text: 'Lyon is in France.' }], {}, { native: true });
    const [s] = await generator.generateSegments([seg()]);
    expect(s!.problem).toMatch(/missing relevance token.*support token.*utility token/);
  });

  it('reads the retrieval decision from the first token', async () => {
    const { generator } = setup(undefined, {}, { native: true });
    const p = await generator.decideRetrieval({ question: 'Where is Lyon?', previous: [] });
    expect(p.retrieval).toBeCloseTo(0.7, 6);
    expect(p.noRetrieval).toBeCloseTo(0.3, 6);
  });
});

describe('characters written as several byte tokens', () => {
  it('still reads every slot, streamed or not, and keeps the text exact', async () => {
    const reply: ScriptedReply = { ...full, text: 'Lyon is in France, near the café district.' };
    for (const onText of [undefined, () => {}]) {
      const { generator } = setup([reply], { byteTokens: { ' café': 3 } });
      const [s] = await generator.generateSegments([seg(onText ? { onText } : {})]);
      expect(s!.text).toBe('Lyon is in France, near the café district.');
      expect(s!.problem).toBeUndefined();
      close([s!.sup!.full, s!.sup!.partial, s!.sup!.none], [0.5, 0.3, 0.2]);
      close(s!.use, [0.05, 0.05, 0.1, 0.3, 0.5]);
    }
  });
});

describe('native mode: the next retrieval decision', () => {
  it('is read from the stop token that ended the segment, so the answer is not done and no extra call is needed', async () => {
    const { generator, engine } = setup(
      [
        {
          text: '[Relevant]Lyon is in France.[Fully supported][Utility:4][Retrieval]<paragraph>more',
          tokenAlternatives: { '[Retrieval]': { '[Retrieval]': 0.6, '[No Retrieval]': 0.3, '[Continue to Use Evidence]': 0.1 } },
        },
      ],
      {},
      { native: true },
    );
    const [s] = await generator.generateSegments([seg()]);
    expect(s!.text).toBe('Lyon is in France.');
    expect(s!.done).toBe(false);
    const p = await generator.decideRetrieval({ question: 'Where is Lyon?', previous: ['Lyon is in France.'] });
    expect(p.retrieval).toBeCloseTo(0.6, 6);
    expect(p.continueEvidence).toBeCloseTo(0.1, 6);
    expect(engine.calls).toHaveLength(1);
  });
});
