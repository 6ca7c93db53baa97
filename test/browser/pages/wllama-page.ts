// Drives the real wllama worker (llama.cpp in WebAssembly) from a page: the
// generator the app uses, on a tiny GGUF model loaded as a Blob (wllama's URL
// cache is keyed by URL, so a regenerated file at the same URL would be served
// stale), plus the raw request path for checks against the model's exact logits.
import { decode } from '../../../src/core/decode';
import { DEFAULT_DECODE_SETTINGS, DEFAULT_RANK_SETTINGS } from '../../../src/core/defaults';
import type { Passage } from '../../../src/core/ports';
import { connectWllama, type WllamaConnection } from '../../../src/generator/wllama-client';
import { WllamaGenerator } from '../../../src/generator/wllama-generator';

let conn: WllamaConnection | undefined;
let gen: WllamaGenerator | undefined;

const passage = (i: number): Passage => ({
  id: `lyon#${i}`,
  docId: 'lyon',
  title: 'Lyon',
  text: i === 0 ? 'Lyon is a city in France where the river meets the other river. It is known for its food.' : `Paris is the capital of France, passage ${i}.`,
  index: i,
});

const api = {
  async load(url: string, opts: { nThreads?: number; native?: boolean; nProbs?: number } = {}) {
    conn?.terminate();
    conn = connectWllama();
    const blob = await (await fetch(url)).blob();
    const info = await conn.load({ blob }, { nCtx: 4096, nThreads: opts.nThreads ?? 1 });
    gen = new WllamaGenerator(conn, { native: !!opts.native, nProbs: opts.nProbs ?? info.nVocab });
    return info;
  },
  tokenIds: (texts: string[]) => conn!.tokenIds(texts),
  complete: (req: Record<string, unknown>) => conn!.complete(99, req),
  async segments(n: number, previous: string[] = []) {
    gen!.resetCost();
    const streamed: string[] = [];
    const segs = await gen!.generateSegments(Array.from({ length: n }, (_, i) => ({ question: 'Where is Lyon?', previous, passage: passage(i), onText: (t: string) => streamed.push(t) })));
    return { segs, streamed, prefill: gen!.prefill(), cost: gen!.cost() };
  },
  /** The whole Self-RAG decode loop of src/core on the real engine. */
  async answer(mode: 'always' | 'adaptive' = 'always', maxDepth = 3) {
    gen!.resetCost();
    const retriever = { retrieve: async (_q: string, k: number) => [0, 1, 2].slice(0, k).map((i) => ({ ...passage(i), score: 1 - i / 10 })) };
    const result = await decode('Where is Lyon?', { generator: gen!, retriever }, { ...DEFAULT_DECODE_SETTINGS, mode, maxDepth }, DEFAULT_RANK_SETTINGS);
    return {
      best: result.ranking.best.map(({ candidate: c }) => ({ text: c.text, passageId: c.passage?.id ?? null, rel: c.fromGenerator.rel, sup: c.fromGenerator.sup, use: c.fromGenerator.use, problem: c.problem })),
      candidates: result.tree.candidates.length,
      prefill: gen!.prefill(),
    };
  },
  async decide(previous: string[] = []) {
    return gen!.decideRetrieval({ question: 'Where is Lyon?', previous });
  },
  /** The raw reply of one prompted candidate, to compare with the exact logits. */
  async rawSegment() {
    const seen: unknown[] = [];
    const g = gen as unknown as { chat: (...a: unknown[]) => Promise<unknown> };
    const { SEGMENT_WITH_PASSAGE } = await import('../../../src/generator/form');
    const { SYSTEM_WITH_PASSAGE, segmentUserMessage } = await import('../../../src/generator/prompts');
    const reply = await g.chat(SYSTEM_WITH_PASSAGE, segmentUserMessage('Where is Lyon?', [], passage(0)), SEGMENT_WITH_PASSAGE, 136);
    seen.push(reply);
    const [seg] = await gen!.generateSegments([{ question: 'Where is Lyon?', previous: [], passage: passage(0) }]);
    return { reply, seg };
  },
  async rawDecision() {
    const g = gen as unknown as { chat: (...a: unknown[]) => Promise<unknown> };
    const { RETRIEVAL_DECISION } = await import('../../../src/generator/form');
    const { SYSTEM_DECISION, decisionUserMessage } = await import('../../../src/generator/prompts');
    return g.chat(SYSTEM_DECISION, decisionUserMessage('Where is Lyon?', []), RETRIEVAL_DECISION, 32);
  },
  async abortThenAnswer() {
    const ctrl = new AbortController();
    let aborted = false;
    try {
      await gen!.generateSegments([{ question: 'Where is Lyon?', previous: [], passage: passage(0), signal: ctrl.signal, onText: () => ctrl.abort() }]);
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
  async speed(tokens: number) {
    const t0 = performance.now();
    const reply = await gen!.write('Say something long.', { maxTokens: tokens });
    return { ms: performance.now() - t0, reply, prefill: gen!.prefill() };
  },
};

(window as unknown as { wl: typeof api }).wl = api;
document.getElementById('status')!.textContent = 'loaded';
