// bench/answer-cost.bench.ts: a real GGUF through the app's llama.cpp generator (wllama) in
// this page; retrieval and the relevance model run in Node (the real MiniLM, the tiny
// cross-encoder stand-in) behind functions the bench exposes to the page, so every
// answer kind below sees the same passages. Each run returns what a user waits for
// (first visible words, the whole answer) and llama.cpp's own token counts and timings.
import { createCorrector } from '../../../src/core/crag/corrector';
import { decode } from '../../../src/core/decode';
import { DEFAULT_DECODE_SETTINGS, DEFAULT_RANK_SETTINGS } from '../../../src/core/defaults';
import { plainRagAnswer } from '../../../src/core/plain-rag';
import type { Critic, Passage, RelProbs, ScoredPassage, SupProbs } from '../../../src/core/ports';
import type { DecodeSettings } from '../../../src/core/types';
import { type Form, REL_REPLY } from '../../../src/generator/form';
import { relMessages } from '../../../src/generator/prompts';
import { connectWllama, type WllamaConnection } from '../../../src/generator/wllama/client';
import { WllamaGenerator } from '../../../src/generator/wllama/decoder';

interface NodeSide {
  /** CPU seconds of the bench and the browser so far (bench/answer-cost/cpu.ts). */
  benchCpu(): Promise<number>;
  benchRetrieve(query: string, k: number): Promise<ScoredPassage[]>;
  /** Relevance probability of each text for the question, from the named model. */
  benchRelevance(question: string, texts: string[], model: string): Promise<number[]>;
}
const node = window as unknown as NodeSide;

let conn: WllamaConnection | undefined;
let gen: WllamaGenerator | undefined;

export type Kind = 'plain' | 'none' | 'self-rag' | 'self-crag';

export interface RunOptions {
  decode?: Partial<DecodeSettings>;
  /** The relevance model behind the critic (evaluator ISREL, the gate) and CRAG's evaluator. */
  critic?: string;
  maxSegmentTokens?: number;
  /** Send a step's candidates to llama.cpp together (one batch) instead of one after another. */
  together?: boolean;
  /** Stop a Self-RAG answer after this long (the result says it was stopped). */
  capSeconds?: number;
}

const retriever = { retrieve: (q: string, k: number) => node.benchRetrieve(q, k) };

function critic(model: string): Critic {
  return {
    async relevance(question: string, passages: Passage[]): Promise<RelProbs[]> {
      const p = await node.benchRelevance(
        question,
        passages.map((x) => `${x.title}\n${x.text}`),
        model,
      );
      return p.map((r) => ({ relevant: r, irrelevant: 1 - r }));
    },
    // Support is not what these runs measure; a neutral judgement keeps ISSUP the generator's weight-free.
    async support(pairs): Promise<SupProbs[]> {
      return pairs.map(() => ({ full: 1 / 3, partial: 1 / 3, none: 1 / 3 }));
    },
  };
}

const api = {
  async load(url: string, nThreads: number) {
    conn?.terminate();
    conn = connectWllama();
    const blob = await (await fetch(url)).blob();
    const info = await conn.load({ blob }, { nCtx: 4096, nThreads });
    gen = new WllamaGenerator(conn, { nProbs: 20 });
    return { ...info, isolated: crossOriginIsolated };
  },

  async run(kind: Kind, question: string, opts: RunOptions = {}) {
    const g =
      opts.maxSegmentTokens || opts.together
        ? new WllamaGenerator(conn!, {
            nProbs: 20,
            ...(opts.maxSegmentTokens ? { maxSegmentTokens: opts.maxSegmentTokens } : {}),
            ...(opts.together ? { together: true } : {}),
          })
        : gen!;
    // A cold prompt cache for every run: rows that share a prefix with the run before would
    // otherwise reuse its KV cache, which a user's first question would not find.
    await conn!.complete(0, { prompt: 'Hi', max_tokens: 1, cache_prompt: true });
    g.resetCost();
    const cpu0 = await node.benchCpu();
    const t0 = performance.now();
    let first: number | null = null;
    let firstCpu: Promise<number> | null = null;
    const seen = (text: string) => {
      if (first === null && /[\p{L}\p{N}]/u.test(text)) {
        first = performance.now() - t0;
        firstCpu = node.benchCpu();
      }
    };
    let text = '';
    let cited: string[] = [];
    let candidates = 0;
    let skipped = 0;
    let problems = 0;
    let aborted = false;
    const rel: { passageId: string; generator?: number; evaluator?: number }[] = [];
    if (kind === 'plain' || kind === 'none') {
      const r = await plainRagAnswer(
        question,
        { retriever, writer: g },
        { passages: kind === 'plain' ? 3 : 0, maxTokens: 192 },
        { onText: seen },
      );
      text = r.text;
      cited = r.passages.map((p) => p.id);
    } else {
      const settings = { ...DEFAULT_DECODE_SETTINGS, ...opts.decode };
      const model = opts.critic ?? 'tiny-reranker';
      const corrector =
        kind === 'self-crag'
          ? createCorrector({ score: (q, texts) => node.benchRelevance(q, texts, model), writer: g, retriever })
          : undefined;
      const stop = new AbortController();
      const timer = opts.capSeconds ? setTimeout(() => stop.abort(), opts.capSeconds * 1000) : undefined;
      const result = await decode(
        question,
        { generator: g, retriever, critic: critic(model), ...(corrector ? { corrector } : {}) },
        settings,
        DEFAULT_RANK_SETTINGS,
        { signal: stop.signal, onEvent: (e) => e.type === 'text' && seen(e.text) },
      );
      clearTimeout(timer);
      aborted = result.aborted;
      text = result.ranking.best.map((b) => b.candidate.text).join(' ');
      cited = result.ranking.best.flatMap((b) => (b.candidate.passage ? [b.candidate.passage.id] : []));
      candidates = result.tree.candidates.length;
      skipped = result.tree.skipped?.length ?? 0;
      problems = result.tree.candidates.filter((c) => c.problem).length;
      for (const c of result.tree.candidates) {
        if (c.passage)
          rel.push({
            passageId: c.passage.id,
            generator:
              c.fromGenerator.rel &&
              c.fromGenerator.rel.relevant / (c.fromGenerator.rel.relevant + c.fromGenerator.rel.irrelevant),
            evaluator: c.fromEvaluator?.rel?.relevant,
          });
      }
    }
    const ms = performance.now() - t0;
    const cpu = (await node.benchCpu()) - cpu0;
    const cpuFirst = firstCpu ? (await firstCpu) - cpu0 : cpu;
    return {
      ms,
      firstMs: first ?? ms,
      cpu,
      cpuFirst,
      aborted,
      text,
      cited,
      candidates,
      skipped,
      problems,
      rel,
      cost: g.cost(),
      prefill: g.prefill(),
    };
  },

  /** The generator's own ISREL for a (question, passage) pair, as the app reads it: the judge's relevance turn. */
  async selfIsrel(question: string, passage: Passage) {
    type Slot = (form: Form, name: 'rel', reply: unknown) => Promise<number[] | null>;
    const d = (
      gen as unknown as {
        decoder: { chat: (req: unknown) => Promise<unknown>; readSlot: Slot };
      }
    ).decoder;
    const reply = await d.chat({ messages: relMessages(question, passage), form: REL_REPLY, maxTokens: 12 });
    const r = await d.readSlot(REL_REPLY, 'rel', reply);
    return r && r[0]! + r[1]! > 0 ? r[0]! / (r[0]! + r[1]!) : null;
  },
};

(window as unknown as { ac: typeof api }).ac = api;
document.getElementById('status')!.textContent = 'loaded';
