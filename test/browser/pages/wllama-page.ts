// Drives the real wllama worker (llama.cpp in WebAssembly) from a page: the
// generator the app uses, on a tiny GGUF model loaded as a Blob (wllama's URL
// cache is keyed by URL, so a regenerated file at the same URL would be served
// stale), plus the raw request path for checks against the model's exact logits.
import { decode } from '../../../src/core/decode';
import { PAPER_DECODE_SETTINGS, DEFAULT_RANK_SETTINGS } from '../../../src/core/defaults';
import type { Passage, ScoredPassage } from '../../../src/core/ports';
import { connectWllama, type WllamaConnection } from '../../../src/generator/wllama/client';
import { WllamaGenerator } from '../../../src/generator/wllama/decoder';

let conn: WllamaConnection | undefined;
let gen: WllamaGenerator | undefined;

const passage = (i: number): Passage => ({
  id: `lyon#${i}`,
  docId: 'lyon',
  title: 'Lyon',
  text:
    i === 0
      ? 'Lyon is a city in France where the river meets the other river. It is known for its food.'
      : `Paris is the capital of France, passage ${i}.`,
  index: i,
});

const api = {
  async load(url: string, opts: { nThreads?: number; native?: boolean; nProbs?: number; gpuLayers?: number } = {}) {
    conn?.terminate();
    conn = connectWllama();
    const blob = await (await fetch(url)).blob();
    const info = await conn.load({ blob }, { nCtx: 4096, nThreads: opts.nThreads ?? 1, gpuLayers: opts.gpuLayers });
    gen = new WllamaGenerator(conn, { native: !!opts.native, nProbs: opts.nProbs ?? info.nVocab });
    return info;
  },
  tokenIds: (texts: string[]) => conn!.tokenIds(texts),
  complete: (req: Record<string, unknown>) => conn!.complete(99, req),
  async segments(n: number, previous: string[] = []) {
    gen!.resetCost();
    const streamed: string[] = [];
    const segs = await gen!.generateSegments(
      Array.from({ length: n }, (_, i) => ({
        question: 'Where is Lyon?',
        previous,
        passage: passage(i),
        onText: (t: string) => streamed.push(t),
      })),
    );
    return { segs, streamed, prefill: gen!.prefill(), cost: gen!.cost() };
  },
  /** The whole Self-RAG decode loop of src/core on the real engine. */
  async answer(mode: 'always' | 'adaptive' = 'always', maxDepth = 3) {
    gen!.resetCost();
    const retriever = {
      retrieve: async (_q: string, k: number) =>
        [0, 1, 2].slice(0, k).map((i) => ({ ...passage(i), score: 1 - i / 10 })),
    };
    const result = await decode(
      'Where is Lyon?',
      { generator: gen!, retriever },
      { ...PAPER_DECODE_SETTINGS, mode, maxDepth },
      DEFAULT_RANK_SETTINGS,
    );
    return {
      best: result.ranking.best.map(({ candidate: c }) => ({
        text: c.text,
        passageId: c.passage?.id ?? null,
        rel: c.fromGenerator.rel,
        sup: c.fromGenerator.sup,
        use: c.fromGenerator.use,
        problem: c.problem,
      })),
      candidates: result.tree.candidates.length,
      /** What could not be read from each candidate's reply (empty when every slot was read). */
      problems: result.tree.candidates.flatMap((c) => (c.problem ? [c.problem] : [])),
      prefill: gen!.prefill(),
    };
  },
  async decide(previous: string[] = []) {
    return gen!.decideRetrieval({ question: 'Where is Lyon?', previous });
  },
  /** The raw replies of one prompted candidate's answer and relevance turns, to compare with the exact logits. */
  async rawSegment() {
    // The raw decodes, below the Self-RAG generator: the decoder it was built on.
    const g = (gen as unknown as { decoder: { chat: (req: unknown) => Promise<unknown> } }).decoder;
    const { REL_REPLY } = await import('../../../src/generator/form');
    const { answerMessages, relMessages } = await import('../../../src/generator/prompts');
    const answer = await g.chat({ messages: answerMessages('Where is Lyon?', [], passage(0)), maxTokens: 40 });
    const rel = await g.chat({ messages: relMessages('Where is Lyon?', passage(0)), form: REL_REPLY, maxTokens: 12 });
    const [seg] = await gen!.generateSegments([{ question: 'Where is Lyon?', previous: [], passage: passage(0) }]);
    return { answer, rel, seg };
  },
  /** The one short constrained completion the handle offers (e.g. a standalone search query). */
  async completeLine(maxTokens: number) {
    return gen!.complete({
      system: 'Rewrite the question as a search query.',
      prompt: 'And where is Lyon?',
      maxTokens,
      oneLine: true,
    });
  },
  async rawDecision() {
    // The raw constrained decode, below the Self-RAG generator: the decoder it was built on.
    const g = (gen as unknown as { decoder: { chat: (req: unknown) => Promise<unknown> } }).decoder;
    const { DECISION_REPLY } = await import('../../../src/generator/form');
    const { decisionMessages } = await import('../../../src/generator/prompts');
    return g.chat({ messages: decisionMessages('Where is Lyon?', []), form: DECISION_REPLY, maxTokens: 12 });
  },
  async abortThenAnswer() {
    const ctrl = new AbortController();
    let aborted = false;
    try {
      await gen!.generateSegments([
        {
          question: 'Where is Lyon?',
          previous: [],
          passage: passage(0),
          signal: ctrl.signal,
          onText: () => ctrl.abort(),
        },
      ]);
    } catch (e) {
      aborted = (e as Error).name === 'AbortError';
    }
    const [next] = await gen!.generateSegments([{ question: 'Where is Lyon?', previous: [], passage: passage(0) }]);
    return { aborted, next };
  },
  async tryAnswer() {
    try {
      const [seg] = await gen!.generateSegments([{ question: 'Where is Lyon?', previous: [], passage: passage(0) }]);
      return { ok: true, seg };
    } catch (e) {
      const err = e as { kind?: string; message: string; suggestion?: string };
      return { ok: false, kind: err.kind, message: err.message, suggestion: err.suggestion };
    }
  },
  /**
   * bench/wllama.bench.ts: answers each question with the decode loop and reports what llama.cpp's
   * prompt cache saved: the prompt tokens it computed against those it reused (without the cache,
   * every one would have been computed). Retrieval is always on (the tiny model itself never
   * retrieves), with the paper's search (critiques from the generator, no budget).
   */
  async bench(questions: string[], passages: Passage[]) {
    const words = (s: string) => new Set(s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
    const overlap = (a: string, b: string) => {
      const x = words(a);
      const y = words(b);
      let n = 0;
      for (const w of x) if (y.has(w)) n++;
      return x.size && y.size ? n / Math.sqrt(x.size * y.size) : 0;
    };
    const retriever = {
      retrieve: async (q: string, k: number) =>
        passages
          .map((p): ScoredPassage => ({ ...p, score: overlap(q, `${p.title} ${p.text}`) }))
          .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
          .slice(0, k),
    };
    gen!.resetCost();
    let candidates = 0;
    for (const q of questions) {
      const result = await decode(
        q,
        { generator: gen!, retriever },
        { ...PAPER_DECODE_SETTINGS, mode: 'always', maxDepth: 3 },
        DEFAULT_RANK_SETTINGS,
      );
      candidates += result.tree.candidates.length;
    }
    return { ours: gen!.prefill(), cost: gen!.cost(), candidates };
  },
  /** Decode speed from llama.cpp's own timings over a few unconstrained replies. */
  async speed(tokens: number, rounds = 5) {
    gen!.resetCost();
    for (let i = 0; i < rounds; i++) await gen!.write(`Say something long, take ${i}.`, { maxTokens: tokens });
    const s = gen!.prefill();
    return { decoded: s.decoded, ms: s.decodeMs, isolated: crossOriginIsolated };
  },
};

export type WllamaPageApi = typeof api;
(window as unknown as { wl: WllamaPageApi }).wl = api;
document.getElementById('status')!.textContent = 'loaded';
