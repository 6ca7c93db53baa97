import { PAPER_DECODE_SETTINGS } from '../../../../src/core/defaults';
import { describe, expect, it } from 'vitest';
import { createController } from '../../../../src/app/wiring/controller';
import { defaultSettings, type CragChoice } from '../../../../src/app/persist/settings';
import { readUrlState } from '../../../../src/app/persist/url-state';
import { answeringModel } from '../../../../src/app/persist/engine-choice';
import { decode } from '../../../../src/core/decode';
import { rerank } from '../../../../src/core/rerank';
import type { Generator } from '../../../../src/core/ports';
import { syntheticGenerator, syntheticRetriever } from '../../../doubles/synthetic-answer';

function setup(generator: Promise<Generator> | (() => Promise<Generator>)) {
  const settings = defaultSettings();
  // The paper's full search (no cost levers): these tests are about the controller, not the budget.
  settings.decode = {
    ...settings.decode,
    ...PAPER_DECODE_SETTINGS,
    mode: 'always',
    passagesPerStep: 5,
    beamWidth: 2,
    maxDepth: 6,
  };
  const saved: string[] = [];
  const c = createController({
    ports: {
      generator: typeof generator === 'function' ? generator : () => generator,
      retriever: async () => syntheticRetriever(),
      critic: async () => undefined,
    },
    decode,
    rerank,
    settings,
    storage: { setItem: (_k, v) => void saved.push(v) },
  });
  return { c, saved };
}

describe('answer controller', () => {
  it('sets any one setting through the sanitiser that reads stored settings, saving it, and refuses a value out of range', () => {
    const { c, saved } = setup(Promise.resolve(syntheticGenerator({ seed: 1 })));
    c.change({ temperature: 0.4 });
    expect(c.getState().settings.temperature).toBe(0.4);
    expect(JSON.parse(saved[saved.length - 1]!).settings.temperature).toBe(0.4);
    c.change({ temperature: 99 });
    expect(c.getState().settings.temperature).toBe(0.4);
    c.change({ engine: { engine: 'wllama', gguf: { kind: 'gguf-url', url: 'javascript:alert(1)', native: false } } });
    expect(c.getState().settings.engine).toEqual({ ...defaultSettings().engine, engine: 'wllama' });
  });

  it("shows an embedding host's theme without saving it over the visitor's own; the visitor's choice is saved", () => {
    const { c, saved } = setup(Promise.resolve(syntheticGenerator({ seed: 1 })));
    c.change({ theme: 'light' });
    c.showHostTheme('dark');
    expect(c.getState().settings.theme).toBe('dark');
    // Another setting changed in the frame saves the visitor's theme, not the host's.
    c.change({ temperature: 0.5 });
    expect(JSON.parse(saved.at(-1)!).settings).toMatchObject({ theme: 'light', temperature: 0.5 });
    c.resetSettings();
    expect(JSON.parse(saved.at(-1)!).settings.theme).toBe('light');
    expect(c.getState().settings.theme).toBe('dark');
    // The visitor picks a theme in the frame: that one is theirs.
    c.change({ theme: 'system' });
    c.change({ temperature: 0.25 });
    expect(JSON.parse(saved.at(-1)!).settings.theme).toBe('system');
  });

  it('saves the engine the user picks, and never an unusable one', async () => {
    const { c, saved } = setup(Promise.resolve(syntheticGenerator({ seed: 1 })));
    c.change({ engine: { engine: 'wllama', gguf: { kind: 'gguf', id: 'qwen2.5-1.5b-gguf' } } });
    expect(JSON.parse(saved.at(-1)!).settings.engine).toEqual({
      engine: 'wllama',
      gguf: { kind: 'gguf', id: 'qwen2.5-1.5b-gguf' },
    });
    c.change({
      engine: { engine: 'webllm', gguf: { kind: 'gguf-url', url: 'http://evil.example/a.gguf', native: false } },
    });
    expect(c.getState().settings.engine).toEqual({ engine: 'webllm', gguf: { kind: 'gguf', id: 'qwen2.5-1.5b-gguf' } });
    expect(JSON.parse(saved.at(-1)!).settings.engine).toEqual(c.getState().settings.engine);
  });

  it('takes the engine the address names for this visit without saving it, until the user picks one', () => {
    const stored = defaultSettings();
    const saved: string[] = [];
    const { settings, visit } = readUrlState('?engine=wllama&gguf=llama-3.2-1b-gguf', stored);
    const c = createController({
      ports: {
        generator: async () => syntheticGenerator(),
        retriever: async () => syntheticRetriever(),
        critic: async () => undefined,
      },
      decode,
      rerank,
      settings,
      visit,
      storage: { setItem: (_k, v) => void saved.push(v) },
    });
    const fromAddress = { engine: 'wllama', gguf: { kind: 'gguf', id: 'llama-3.2-1b-gguf' } };
    expect(c.getState().settings.engine).toEqual(fromAddress);
    expect(answeringModel(c.getState().settings).id).toBe('llama-3.2-1b-gguf');
    // Another setting saved meanwhile keeps the reader's own engine in storage.
    c.change({ temperature: 0.5 });
    expect(JSON.parse(saved.at(-1)!).settings.engine).toEqual(stored.engine);
    expect(c.getState().settings.engine).toEqual(fromAddress);
    // The user's pick replaces the address's and is saved; going back to the stored engine stays their pick.
    c.change({ engine: { ...stored.engine, engine: 'webllm' } });
    expect(c.getState().settings.engine.engine).toBe('webllm');
    c.change({ engine: stored.engine });
    expect(c.getState().settings.engine).toEqual(stored.engine);
    expect(JSON.parse(saved.at(-1)!).settings.engine).toEqual(stored.engine);
  });

  it('streams a decode into segments and re-ranks on a weight change without calling the generator', async () => {
    const gen = syntheticGenerator({ seed: 11 });
    const { c, saved } = setup(Promise.resolve(gen));
    const seen: string[] = [];
    c.subscribe(() => seen.push(c.getState().answer.status));
    await c.ask('Why are there tides?');
    const s = c.getState();
    expect(s.answer.status).toBe('done');
    expect(seen).toContain('running');
    expect(s.answer.ranking?.best.length).toBe(6);
    expect(s.generatorCalls).toBe(gen.calls);
    const callsBefore = gen.calls;
    const before = s.answer.ranking!.best.map((b) => b.candidate.id);

    // Weigh support only, then relevance only: at least one chosen segment must change.
    c.change({ rank: { weights: { rel: 0, sup: 3, use: 0, seq: 0 }, hardConstraints: false } });
    const supOnly = c.getState().answer.ranking!.best.map((b) => b.candidate.id);
    c.change({ rank: { weights: { rel: 3, sup: 0, use: 0, seq: 0 }, hardConstraints: false } });
    const relOnly = c.getState().answer.ranking!.best.map((b) => b.candidate.id);
    expect(supOnly).not.toEqual(relOnly);
    const changed = c.getState().answer.changed;
    expect(changed.length).toBeGreaterThan(0);
    for (const d of changed) expect(supOnly[d]).not.toBe(relOnly[d]);
    expect(gen.calls).toBe(callsBefore);
    expect(c.getState().generatorCalls).toBe(callsBefore);
    expect(before.length).toBe(6);
    expect(JSON.parse(saved.at(-1)!).settings.rank.weights.rel).toBe(3);
  });

  it('offers a re-run only when a decode setting changed', async () => {
    const { c } = setup(Promise.resolve(syntheticGenerator()));
    await c.ask('q');
    expect(c.pendingDecodeChanges()).toEqual([]);
    c.change({ rank: { ...c.getState().settings.rank, weights: { rel: 2, sup: 1, use: 0.5, seq: 0 } } });
    expect(c.pendingDecodeChanges()).toEqual([]);
    c.change({ decode: { ...c.getState().settings.decode, beamWidth: 3 } });
    expect(c.pendingDecodeChanges()).toEqual(['beamWidth']);
  });

  it('passes the Self-CRAG corrector only when corrective retrieval is on, and offers a re-run when it changes', async () => {
    const corrected: string[] = [];
    const settings = defaultSettings();
    settings.decode = { ...settings.decode, ...PAPER_DECODE_SETTINGS, mode: 'always', passagesPerStep: 3, maxDepth: 2 };
    const c = createController({
      ports: {
        generator: async () => syntheticGenerator({ depth: 2 }),
        retriever: async () => syntheticRetriever(),
        critic: async () => undefined,
        corrector: async () => ({
          correct: async (question, passages) => {
            corrected.push(question);
            return { action: 'correct' as const, passages: passages.slice(0, 1), details: 'kept the best passage' };
          },
        }),
      },
      decode,
      rerank,
      settings,
    });
    await c.ask('plain');
    expect(corrected).toEqual([]);
    c.change({ corrective: true });
    expect(c.pendingDecodeChanges()).toEqual(['corrective']);
    await c.ask('corrected');
    expect(corrected.length).toBeGreaterThan(0);
    const cands = c.getState().answer.tree!.candidates;
    expect(cands.every((x) => x.correction?.action === 'correct')).toBe(true);
    expect(c.pendingDecodeChanges()).toEqual([]);
  });

  it('builds the corrector from the CRAG settings, refuses lower above upper, and offers a re-run for CRAG changes only while corrective', async () => {
    const given: CragChoice[] = [];
    const settings = defaultSettings();
    settings.decode = { ...settings.decode, ...PAPER_DECODE_SETTINGS, mode: 'always', passagesPerStep: 2, maxDepth: 1 };
    const c = createController({
      ports: {
        generator: async () => syntheticGenerator({ depth: 1 }),
        retriever: async () => syntheticRetriever(),
        critic: async () => undefined,
        corrector: async (crag) => {
          given.push(crag);
          return { correct: async (_q, passages) => ({ action: 'correct' as const, passages }) };
        },
      },
      decode,
      rerank,
      settings,
    });
    const crag = { ...c.getState().settings.crag, upper: 0.7, noEvidence: 'abstain' as const };
    expect(c.change({ crag })).toBeNull();
    await c.ask('plain');
    expect(given).toEqual([]);
    // Without the corrector running, CRAG thresholds shaped nothing: no re-run offered.
    expect(c.change({ crag: { ...crag, lower: 0.2 } })).toBeNull();
    expect(c.pendingDecodeChanges()).toEqual([]);

    c.change({ corrective: true });
    await c.ask('corrected');
    expect(given).toEqual([{ ...crag, lower: 0.2 }]);
    expect(c.pendingDecodeChanges()).toEqual([]);

    const problem = c.change({ crag: { ...crag, lower: 0.9 } });
    expect(problem).toMatch(/lower threshold \(0.9\) must not be above the upper threshold \(0.7\)/);
    expect(c.getState().settings.crag.lower).toBe(0.2);
    expect(c.pendingDecodeChanges()).toEqual([]);
    c.change({ crag: { ...crag, lower: 0.2, stripThreshold: 0.6, externalEnabled: true } });
    expect(c.pendingDecodeChanges()).toEqual(['crag.stripThreshold', 'crag.externalEnabled']);
  });

  it('stop keeps what was finished and the page can ask again', async () => {
    const slow = syntheticGenerator({ seed: 3 });
    const gated: Generator = {
      decideRetrieval: (r) => slow.decideRetrieval(r),
      generateSegments: async (reqs) => {
        if (reqs[0]!.previous.length >= 2) await new Promise((r) => setTimeout(r, 50));
        return slow.generateSegments(reqs);
      },
    };
    const { c } = setup(Promise.resolve(gated));
    const running = c.ask('q');
    await new Promise((r) => setTimeout(r, 20));
    c.stop();
    await running;
    const s = c.getState().answer;
    expect(s.status).toBe('stopped');
    expect(s.ranking!.best.length).toBeGreaterThan(0);
    expect(s.ranking!.best.length).toBeLessThan(6);
    await c.ask('again');
    expect(c.getState().answer.status).toBe('done');
  });

  it('marks a new run before it awaits anything (the conversation claims that run for its turn at once)', async () => {
    const { c } = setup(Promise.resolve(syntheticGenerator({ seed: 1 })));
    await c.ask('first');
    const before = c.getState().answer.runId;
    const asking = c.ask('second', { query: 'second, searched' });
    // Read before any await: this run is already the page's answer.
    expect(c.getState().answer).toMatchObject({ runId: before + 1, status: 'running', question: 'second' });
    await asking;
    expect(c.getState().answer).toMatchObject({ runId: before + 1, status: 'done' });
  });

  it('without a generator it shows the best passages and says why', async () => {
    const { c } = setup(() => Promise.reject(new Error('This browser has no WebGPU adapter.')));
    await c.ask('tides');
    const s = c.getState();
    expect(s.evidenceOnly?.reason).toContain('no WebGPU');
    expect(s.answer.evidenceReason).toContain('no WebGPU');
    expect(s.answer.evidence?.passages.length).toBeGreaterThan(0);
    expect(s.answer.status).toBe('done');
  });

  it('keeps with each answer how much of the library search by meaning reached when it searched, if not all', async () => {
    let coverage = { embedded: 1_240, total: 3_100 };
    let searchedAt: typeof coverage | null = null;
    const retriever = syntheticRetriever();
    const c = createController({
      ports: {
        generator: async () => syntheticGenerator({ seed: 1 }),
        retriever: async () => ({
          retrieve: (q, k, signal) => {
            searchedAt ??= { ...coverage };
            return retriever.retrieve(q, k, signal);
          },
        }),
        critic: async () => undefined,
        meaningCoverage: () => coverage,
      },
      decode,
      rerank,
      settings: { ...defaultSettings(), decode: { ...defaultSettings().decode, mode: 'always' } },
    });
    const asked = c.ask('tides');
    await asked;
    expect(searchedAt).toEqual({ embedded: 1_240, total: 3_100 });
    expect(c.getState().answer.coverage).toEqual({ embedded: 1_240, total: 3_100 });
    // The batch ended: every passage has its vector, and the next answer says nothing of it.
    coverage = { embedded: 3_100, total: 3_100 };
    await c.ask('tides again');
    expect(c.getState().answer.coverage).toBeUndefined();
    // In evidence-only mode the passages carry it the same way.
    coverage = { embedded: 0, total: 12 };
    c.enterEvidenceOnly('chosen');
    await c.ask('tides');
    expect(c.getState().answer.evidence?.passages.length).toBeGreaterThan(0);
    expect(c.getState().answer.coverage).toEqual({ embedded: 0, total: 12 });
  });
});

describe('answer state while decoding', async () => {
  const { applyEvent, initialAnswerState, startRun } = await import('../../../../src/app/state/answer');
  it('streams candidate text and drops it once the candidate is finished', async () => {
    const rank = defaultSettings().rank;
    let s = startRun(initialAnswerState, 'q', defaultSettings().decode);
    s = applyEvent(s, { type: 'text', depth: 0, parentId: null, passageId: 'p1', text: 'Tides' }, rank, rerank);
    s = applyEvent(s, { type: 'text', depth: 0, parentId: null, passageId: 'p1', text: 'Tides rise' }, rank, rerank);
    s = applyEvent(s, { type: 'text', depth: 0, parentId: null, passageId: 'p2', text: 'Moon' }, rank, rerank);
    expect(s.streaming.map((x) => x.text)).toEqual(['Tides rise', 'Moon']);
    const passage = { id: 'p1', docId: 'd', title: 't', text: 'Tides rise.', index: 0, score: 1 };
    s = applyEvent(
      s,
      {
        type: 'candidate',
        candidate: {
          id: 'c0',
          parentId: null,
          depth: 0,
          text: 'Tides rise.',
          passage,
          retrieve: { probs: null, retrieved: true, reason: 'always' },
          rel: { relevant: 0.9, irrelevant: 0.1 },
          fromGenerator: {},
          tokenCount: 3,
          done: true,
        },
      },
      rank,
      rerank,
    );
    expect(s.streaming.map((x) => x.text)).toEqual(['Moon']);
    expect(s.ranking?.best.map((b) => b.candidate.id)).toEqual(['c0']);
  });
});

describe('a generator that breaks mid-answer', () => {
  it('keeps the finished segments and says what went wrong', async () => {
    const good = syntheticGenerator({ seed: 9 });
    let n = 0;
    const flaky: Generator = {
      decideRetrieval: (r) => good.decideRetrieval(r),
      generateSegments: async (reqs) => {
        if (++n === 2) throw new Error('The GPU stopped responding.');
        return good.generateSegments(reqs);
      },
    };
    const { c } = setup(Promise.resolve(flaky));
    await c.ask('q');
    const a = c.getState().answer;
    expect(a.error).toContain('The GPU stopped responding.');
    expect(a.status).toBe('stopped');
    expect(a.ranking!.best.length).toBe(1);
    await c.ask('again');
    expect(c.getState().answer.error).toBeNull();
  });
});
