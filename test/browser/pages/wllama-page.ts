// Drives the real wllama worker (llama.cpp in WebAssembly) from a page: the
// generator the app uses, on a tiny GGUF model loaded as a Blob (wllama's URL
// cache is keyed by URL, so a regenerated file at the same URL would be served
// stale), plus the raw request path for checks against the model's exact logits.
import { decode } from '../../../src/core/decode';
import { PAPER_DECODE_SETTINGS, DEFAULT_RANK_SETTINGS } from '../../../src/core/defaults';
import type { Passage, ScoredPassage } from '../../../src/core/ports';
import { segmentUserMessage } from '../../../src/generator/prompts';
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
  /** The raw reply of one prompted candidate, to compare with the exact logits. */
  async rawSegment() {
    const seen: unknown[] = [];
    // The raw constrained decode, below the Self-RAG generator: the decoder it was built on.
    const g = (gen as unknown as { decoder: { chat: (...a: unknown[]) => Promise<unknown> } }).decoder;
    const { SEGMENT_WITH_PASSAGE } = await import('../../../src/generator/form');
    const { SYSTEM_WITH_PASSAGE, segmentUserMessage } = await import('../../../src/generator/prompts');
    const reply = await g.chat(
      SYSTEM_WITH_PASSAGE,
      segmentUserMessage('Where is Lyon?', [], passage(0)),
      SEGMENT_WITH_PASSAGE,
      136,
    );
    seen.push(reply);
    const [seg] = await gen!.generateSegments([{ question: 'Where is Lyon?', previous: [], passage: passage(0) }]);
    return { reply, seg };
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
    const g = (gen as unknown as { decoder: { chat: (...a: unknown[]) => Promise<unknown> } }).decoder;
    const { RETRIEVAL_DECISION } = await import('../../../src/generator/form');
    const { SYSTEM_DECISION, decisionUserMessage } = await import('../../../src/generator/prompts');
    return g.chat(SYSTEM_DECISION, decisionUserMessage('Where is Lyon?', []), RETRIEVAL_DECISION, 32);
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
   * bench/wllama.bench.ts: answers each question with the decode loop (ours: one pass per
   * candidate, shared prefix first, prompt cache on), then counts what the paper's plain
   * algorithm would prefill on the same tree: every decision, segment and critique prompt
   * in full, with no cache (each sent with max_tokens 1, cache_prompt false).
   * Retrieval is always on (the tiny model itself never retrieves), so no decision prompts.
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
    let plain = 0;
    let candidates = 0;
    const count = async (system: string, user: string) => {
      const r = await conn!.complete(7, {
        prompt: `<|im_start|>system\n${system}<|im_end|>\n<|im_start|>user\n${user}<|im_end|>\n<|im_start|>assistant\n`,
        max_tokens: 1,
        cache_prompt: false,
      });
      plain += r.timings?.prompt_n ?? r.usage?.prompt_tokens ?? 0;
    };
    for (const q of questions) {
      const result = await decode(
        q,
        { generator: gen!, retriever },
        { ...PAPER_DECODE_SETTINGS, mode: 'always', maxDepth: 3 },
        DEFAULT_RANK_SETTINGS,
      );
      const byId = new Map(result.tree.candidates.map((c) => [c.id, c]));
      const previousOf = (c: (typeof result.tree.candidates)[number]): string[] => {
        const out: string[] = [];
        for (
          let p = c.parentId ? byId.get(c.parentId) : undefined;
          p;
          p = p.parentId ? byId.get(p.parentId) : undefined
        )
          out.unshift(p.text);
        return out;
      };
      // Retrieval is always on here, so neither algorithm asks for a retrieval decision.
      for (const c of result.tree.candidates) {
        candidates++;
        const previous = previousOf(c);
        const user = segmentUserMessage(q, previous, c.passage);
        await count('Write the next one or two sentences of the answer to the question, using the passage.', user);
        if (c.passage) {
          await count('Is the passage relevant to the question?', user);
          await count('Is the answer supported by the passage?', `${user}\nSegment: ${c.text}`);
        }
        await count('How useful is the answer for the question (1 to 5)?', `Question: ${q}\nSegment: ${c.text}`);
      }
    }
    return { ours: gen!.prefill(), cost: gen!.cost(), plain, candidates };
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
