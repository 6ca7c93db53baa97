// A token-faithful double of web-llm 0.2.86's engine (Node only). Real
// tokenizer, real xgrammar masks, and web-llm's own order of operations for each
// sampled token (LLMChatPipeline.sampleFromRawLogits): grammar bitmask → logit
// bias → repetition / frequency / presence penalties (defaulting to the model's
// mlc-chat-config.json) → softmax at max(1e-6, T) → log-probs and top-k read
// from those probabilities (web-llm's getTopProbs, early exit included) →
// sampling (top_p only acts here). Token strings are `tokenizer.decode([id])`,
// the message is the decode of every output id, stop tokens get their own
// log-prob entry, stop strings cut the message, `max_tokens` ends with
// 'length' even when the grammar is complete, a streamed chunk is held back
// while the message ends mid-character (so that token's entry never arrives),
// and errors reach the caller as strings. Only the logits are scripted: a test
// says what the "model" wants to write, and at each step the logits favour the
// next token of that text (the tokenizer's own split while the output follows
// it, else the longest token that continues it), spread over the alternatives
// the script weighs, over a deterministic noise floor.
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionRequest,
  ChatCompletionTokenLogprob,
  Completion,
  CompletionCreateParams,
} from '@mlc-ai/web-llm';
import { FNV_OFFSET, fnv1aStep } from '../../src/core/fnv1a';
import { parseGrammar } from './grammar';
import { bytesKey, loadVocab, type Family, type GrammarMatcher, type ModelConfig, type Vocab, xg } from './token-vocab';
import { mulberry32 } from '../../src/core/mulberry32';

export type Wanted = Record<string, number>;

export interface LogitContext {
  /** Output ids so far (stop token excluded). */
  ids: readonly number[];
  vocab: Vocab;
}

export interface FaithfulReply {
  /** The free text of the form (its `[^\n]+` item), or the whole reply without a grammar. */
  text?: string;
  /** Wanted weights at each grammar slot, by rule name; keys may include strings the grammar forbids. */
  slots?: Record<string, Wanted>;
  /** Without a grammar: where `text` has the key, the model weighs these replacements. */
  tokenAlternatives?: Record<string, Wanted>;
  /** Replaces the scripted preference: raw logits for the next token. */
  logits?: (ctx: LogitContext) => Float32Array;
  /** Reject the call with this string, as web-llm's worker reports errors. */
  error?: string;
}

export interface FaithfulCall {
  kind: 'chat' | 'completion';
  system: string;
  user: string;
  prompt: string;
  grammar?: string;
  index: number;
}

export type FaithfulScript = (call: FaithfulCall) => FaithfulReply;

export interface FaithfulRecord {
  call: FaithfulCall;
  request: ChatCompletionRequest | CompletionCreateParams;
  promptTokens: number;
  ids: number[];
  finish: string;
}

export interface FaithfulEngineOptions {
  family: Family;
  /** A native Self-RAG vocabulary: the reflection tokens are single tokens. */
  native?: boolean;
  script: FaithfulScript | FaithfulReply[];
  /** Overrides of the model's mlc-chat-config.json generation defaults. */
  config?: Partial<ModelConfig>;
  /** Awaited before each token, so tests can abort mid-decode. */
  tokenDelayMs?: number;
}

/** The logit a scripted preference gets over the noise floor (real logits run 10–30). */
export const PREFERRED_LOGIT = 20;

interface Candidate {
  bytes: Uint8Array;
  ids: number[];
  weight: number;
}

interface Step {
  id: number;
  entry: ChatCompletionTokenLogprob;
}

export class FaithfulEngine {
  readonly calls: FaithfulRecord[] = [];
  private interrupted = false;
  private readonly script: FaithfulScript;

  private constructor(
    readonly vocab: Vocab,
    private readonly opts: FaithfulEngineOptions,
  ) {
    const s = opts.script;
    this.script = typeof s === 'function' ? s : (c) => s[c.index] ?? s[s.length - 1] ?? {};
  }

  static async create(opts: FaithfulEngineOptions): Promise<FaithfulEngine> {
    const vocab = await loadVocab(opts.family, opts.native ?? false);
    return new FaithfulEngine(vocab, opts);
  }

  get config(): ModelConfig {
    return { ...this.vocab.config, ...this.opts.config };
  }

  interruptGenerate(): void {
    this.interrupted = true;
  }

  async chatCompletion(request: ChatCompletionRequest): Promise<ChatCompletion | AsyncIterable<ChatCompletionChunk>> {
    validate(request);
    const text = (role: string): string =>
      request.messages
        .filter((m) => m.role === role)
        .map((m) => (typeof m.content === 'string' ? m.content : ''))
        .join('\n');
    const grammar = request.response_format?.type === 'grammar' ? (request.response_format.grammar ?? '') : undefined;
    const call: FaithfulCall = {
      kind: 'chat',
      system: text('system'),
      user: text('user'),
      prompt: '',
      index: this.calls.length,
      ...(grammar !== undefined ? { grammar } : {}),
    };
    const promptTokens = this.vocab.encode(this.vocab.template(call.system, call.user)).length;
    const run = this.start(call, request, promptTokens);
    if (request.stream)
      return this.stream(run, request.logprobs === true, request.stream_options?.include_usage === true);
    const { steps, record } = await collect(run);
    return {
      id: `chatcmpl-${call.index}`,
      object: 'chat.completion',
      created: 0,
      model: `faithful-${this.vocab.family}`,
      choices: [
        {
          index: 0,
          finish_reason: record.finish as 'stop',
          message: { role: 'assistant', content: run.message() },
          logprobs: request.logprobs ? { content: steps.map((s) => s.entry) } : null,
        },
      ],
      usage: usage(promptTokens, record.ids.length),
    } as ChatCompletion;
  }

  async completion(request: CompletionCreateParams): Promise<Completion> {
    validate(request);
    if (request.stream) throw new Error('The faithful engine does not stream raw completions.');
    const call: FaithfulCall = {
      kind: 'completion',
      system: '',
      user: '',
      prompt: request.prompt,
      index: this.calls.length,
    };
    const promptTokens = this.vocab.encode(request.prompt).length;
    const run = this.start(call, request, promptTokens);
    const { steps, record } = await collect(run);
    return {
      id: `cmpl-${call.index}`,
      object: 'text_completion',
      created: 0,
      model: `faithful-${this.vocab.family}`,
      choices: [
        {
          index: 0,
          text: run.message(),
          finish_reason: record.finish,
          logprobs: request.logprobs ? { content: steps.map((s) => s.entry) } : null,
        },
      ],
      usage: usage(promptTokens, record.ids.length),
    } as Completion;
  }

  private start(call: FaithfulCall, request: ChatCompletionRequest | CompletionCreateParams, promptTokens: number) {
    this.interrupted = false;
    const reply = this.script(call);
    const record: FaithfulRecord = { call, request, promptTokens, ids: [], finish: 'stop' };
    const vocab = this.vocab;
    const engine = this;
    const gen = resolveGeneration(request, this.config);
    let message = '';
    async function* each(): AsyncGenerator<Step, void> {
      if (reply.error !== undefined) throw reply.error;
      const items = call.grammar !== undefined ? parseGrammar(call.grammar) : undefined;
      let matcher: GrammarMatcher | undefined;
      if (call.grammar !== undefined) {
        try {
          const compiled = await vocab.compiler.compileGrammar(call.grammar);
          matcher = await xg().GrammarMatcher.createGrammarMatcher(compiled);
        } catch (e) {
          throw `Failed to compile the grammar: ${String(e)}`;
        }
      }
      engine.calls.push(record);
      const logitsOf = reply.logits ?? scriptedLogits(vocab, candidates(vocab, reply, items));
      const appeared = new Map<number, number>();
      const rng = mulberry32(gen.seed);
      const stops = [...vocab.stopStr, ...gen.stop];
      for (;;) {
        if (engine.opts.tokenDelayMs) await new Promise((r) => setTimeout(r, engine.opts.tokenDelayMs));
        if (engine.interrupted) {
          record.finish = 'abort';
          return;
        }
        const logits = logitsOf({ ids: record.ids, vocab });
        const mask = matcher ? await matcher.getNextTokenBitmask() : undefined;
        const probs = processLogits(logits, { mask, bias: gen.logitBias, appeared, ...gen });
        const id = sample(probs, gen.top_p, rng);
        const entry = logprobEntry(vocab, probs, id, gen.topLogprobs);
        if (matcher && !matcher.acceptToken(id)) throw 'Grammar matcher rejected the newly sampled token.';
        if (vocab.stopIds.includes(id)) {
          record.finish = 'stop';
          yield { id, entry };
          return;
        }
        record.ids.push(id);
        appeared.set(id, (appeared.get(id) ?? 0) + 1);
        let out = vocab.decode(record.ids);
        let stopped = false;
        for (const s of stops) {
          const at = out.lastIndexOf(s);
          if (at >= 0) {
            out = out.slice(0, at);
            stopped = true;
            break;
          }
        }
        message = out;
        yield { id, entry };
        if (stopped) {
          record.finish = 'stop';
          return;
        }
        if (record.ids.length >= gen.maxTokens) {
          record.finish = 'length';
          return;
        }
      }
    }
    return { each, record, message: () => message };
  }

  private async *stream(
    run: ReturnType<FaithfulEngine['start']>,
    logprobs: boolean,
    includeUsage: boolean,
  ): AsyncGenerator<ChatCompletionChunk> {
    const base = {
      id: 'chunk',
      object: 'chat.completion.chunk' as const,
      created: 0,
      model: `faithful-${this.vocab.family}`,
    };
    let shown = 0;
    for await (const step of run.each()) {
      const now = run.message();
      // web-llm's makeStreamDeltaChunk: nothing while the message ends mid-character.
      if (countTrailingReplacement(now) % 4 !== 0) continue;
      const delta = now.slice(shown);
      shown = now.length;
      yield {
        ...base,
        choices: [
          {
            index: 0,
            delta: { content: delta, role: 'assistant' },
            finish_reason: null,
            logprobs: logprobs ? { content: [step.entry] } : null,
          },
        ],
      } as ChatCompletionChunk;
    }
    yield {
      ...base,
      choices: [{ index: 0, delta: {}, finish_reason: run.record.finish as 'stop' }],
    } as ChatCompletionChunk;
    if (includeUsage)
      yield {
        ...base,
        choices: [],
        usage: usage(run.record.promptTokens, run.record.ids.length),
      } as ChatCompletionChunk;
  }
}

async function collect(run: ReturnType<FaithfulEngine['start']>): Promise<{ steps: Step[]; record: FaithfulRecord }> {
  const steps: Step[] = [];
  for await (const s of run.each()) steps.push(s);
  return { steps, record: run.record };
}

interface Generation {
  temperature: number;
  top_p: number;
  repetition_penalty: number;
  frequency_penalty: number;
  presence_penalty: number;
  logitBias: Record<string, number> | undefined;
  topLogprobs: number;
  maxTokens: number;
  seed: number;
  stop: string[];
}

/** web-llm's defaulting: request fields, else the model config; one of frequency/presence set makes the other 0. */
function resolveGeneration(r: ChatCompletionRequest | CompletionCreateParams, c: ModelConfig): Generation {
  const has = (v: unknown): boolean => v !== undefined && v !== null;
  return {
    temperature: r.temperature ?? c.temperature,
    top_p: r.top_p ?? c.top_p,
    repetition_penalty: r.repetition_penalty ?? c.repetition_penalty,
    frequency_penalty: has(r.frequency_penalty)
      ? r.frequency_penalty!
      : has(r.presence_penalty)
        ? 0
        : c.frequency_penalty,
    presence_penalty: has(r.presence_penalty) ? r.presence_penalty! : has(r.frequency_penalty) ? 0 : c.presence_penalty,
    logitBias: r.logit_bias ?? undefined,
    topLogprobs: r.logprobs ? (r.top_logprobs ?? 0) : 0,
    maxTokens: r.max_tokens ?? Infinity,
    seed: r.seed ?? 0,
    stop: r.stop == null ? [] : Array.isArray(r.stop) ? r.stop : [r.stop],
  };
}

export interface ProcessOptions {
  mask?: Int32Array | undefined;
  bias?: Record<string, number> | undefined;
  appeared: ReadonlyMap<number, number>;
  temperature: number;
  repetition_penalty: number;
  frequency_penalty: number;
  presence_penalty: number;
}

/** Logits → probabilities, in web-llm's order: mask, logit bias, penalties, softmax at max(1e-6, T). */
export function processLogits(raw: Float32Array, o: ProcessOptions): Float64Array {
  const logits = Float64Array.from(raw);
  if (o.mask) {
    for (let i = 0; i < logits.length; i++) if (((o.mask[i >> 5]! >>> (i & 31)) & 1) === 0) logits[i] = -Infinity;
  }
  if (o.bias) for (const [k, b] of Object.entries(o.bias)) logits[Number(k)]! += b;
  if (o.repetition_penalty !== 1 || o.frequency_penalty !== 0 || o.presence_penalty !== 0) {
    // mlc-llm's apply_penalty_inplace: presence and frequency subtract, then repetition scales.
    for (const [id, cnt] of o.appeared) {
      let l = logits[id]! - o.presence_penalty - o.frequency_penalty * cnt;
      l = l > 0 ? l / o.repetition_penalty : l * o.repetition_penalty;
      logits[id] = l;
    }
  }
  const t = Math.max(1e-6, o.temperature);
  let max = -Infinity;
  for (const l of logits) if (l > max) max = l;
  let z = 0;
  for (let i = 0; i < logits.length; i++) {
    const e = Math.exp((logits[i]! - max) / t);
    logits[i] = e;
    z += e;
  }
  for (let i = 0; i < logits.length; i++) logits[i]! /= z;
  return logits;
}

/** web-llm's getTopProbs, verbatim in effect: a selection sort over ids with its early exit. */
export function topProbs(k: number, p: ArrayLike<number>): [number, number][] {
  if (k === 0) return [];
  const top: [number, number][] = Array.from({ length: k }, () => [-1, -1]);
  let sum = 0;
  for (let i = 0; i < p.length; i++) {
    let j = k - 1;
    for (; j >= 0; --j) {
      if (p[i]! > top[j]![1]) {
        if (j !== k - 1) top[j + 1] = top[j]!;
      } else break;
    }
    if (j !== k - 1) top[j + 1] = [i, p[i]!];
    sum += p[i]!;
    if (1 - sum <= top[k - 1]![1]) break;
  }
  return top;
}

function logprobEntry(vocab: Vocab, probs: Float64Array, id: number, k: number): ChatCompletionTokenLogprob {
  const enc = new TextEncoder();
  const str = (t: number): string => (t < 0 ? '' : vocab.decode([t]));
  const token = str(id);
  return {
    token,
    bytes: Array.from(enc.encode(token)),
    logprob: Math.log(probs[id]!),
    top_logprobs: topProbs(k, probs).map(([t, p]) => ({
      token: str(t),
      bytes: Array.from(enc.encode(str(t))),
      logprob: Math.log(p),
    })),
  };
}

/** top_p sampling as the kernel does it: sorted probabilities, keep the head reaching top_p (at least 1e-5). */
function sample(probs: Float64Array, topP: number, rng: () => number): number {
  const p = Math.max(topP, 1e-5);
  let best = 0;
  for (let i = 1; i < probs.length; i++) if (probs[i]! > probs[best]!) best = i;
  if (probs[best]! >= p) return best;
  const order = Array.from(probs.keys())
    .filter((i) => probs[i]! > 0)
    .sort((a, b) => probs[b]! - probs[a]! || a - b);
  const head: number[] = [];
  let mass = 0;
  for (const i of order) {
    head.push(i);
    mass += probs[i]!;
    if (mass >= p) break;
  }
  let u = rng() * mass;
  for (const i of head) if ((u -= probs[i]!) < 0) return i;
  return head[head.length - 1]!;
}

function countTrailingReplacement(s: string): number {
  let n = 0;
  for (let i = s.length - 1; i >= 0 && s[i] === '\ufffd'; i--) n++;
  return n;
}

// ---- the scripted "model" -------------------------------------------------

const enc = new TextEncoder();

/** Every full reply the script weighs: the product of its slot (or token) alternatives. */
function candidates(
  vocab: Vocab,
  reply: FaithfulReply,
  items: ReturnType<typeof parseGrammar> | undefined,
): Candidate[] {
  let parts: { text: string; weight: number }[] = [{ text: '', weight: 1 }];
  const extend = (options: [string, number][]): void => {
    const total = options.reduce((a, [, w]) => a + w, 0);
    parts = parts.flatMap((p) =>
      options.filter(([, w]) => w > 0).map(([t, w]) => ({ text: p.text + t, weight: (p.weight * w) / total })),
    );
  };
  if (items) {
    for (const item of items) {
      if (item.kind === 'literal') extend([[item.text, 1]]);
      else if (item.kind === 'line') extend([[(reply.text ?? 'It is.').replace(/\n+/g, ' '), 1]]);
      else {
        const wanted = reply.slots?.[item.rule];
        extend(wanted ? Object.entries(wanted) : item.alternatives.map((a) => [a, 1]));
      }
    }
  } else {
    const text = reply.text ?? '';
    const keys = Object.keys(reply.tokenAlternatives ?? {});
    const re = keys.length
      ? new RegExp(keys.map((k) => k.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'), 'g')
      : null;
    let at = 0;
    for (const m of re ? text.matchAll(re) : []) {
      extend([[text.slice(at, m.index), 1]]);
      extend(Object.entries(reply.tokenAlternatives![m[0]]!));
      at = m.index! + m[0].length;
    }
    extend([[text.slice(at), 1]]);
  }
  return parts.map((p) => ({ bytes: enc.encode(p.text), ids: vocab.encode(p.text), weight: p.weight }));
}

function startsWith(a: Uint8Array, prefix: Uint8Array): boolean {
  if (prefix.length > a.length) return false;
  for (let i = 0; i < prefix.length; i++) if (a[i] !== prefix[i]) return false;
  return true;
}

function longestToken(vocab: Vocab, rest: Uint8Array): number | undefined {
  // An added token is one token wherever it appears, and no ordinary token runs into it.
  let limit = Math.min(rest.length, vocab.maxBytes);
  for (const a of vocab.added) {
    for (let at = 0; at < limit && at + a.bytes.length <= rest.length; at++) {
      if (!startsWith(rest.subarray(at), a.bytes)) continue;
      if (at === 0) return a.id;
      limit = at;
      break;
    }
  }
  for (let n = limit; n > 0; n--) {
    const id = vocab.byBytes.get(bytesKey(rest.subarray(0, n)));
    if (id !== undefined) return id;
  }
  return undefined;
}

function concatBytes(vocab: Vocab, ids: readonly number[]): Uint8Array {
  const parts = ids.map((i) => vocab.bytes[i]!);
  const out = new Uint8Array(parts.reduce((a, b) => a + b.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The scripted logits for `reply` under `grammar` (for tests that script only part of the logits). */
export function scriptedLogitsFor(
  vocab: Vocab,
  reply: FaithfulReply,
  grammar?: string,
): (ctx: LogitContext) => Float32Array {
  return scriptedLogits(vocab, candidates(vocab, reply, grammar === undefined ? undefined : parseGrammar(grammar)));
}

/** Logits that favour the next token of each weighed reply, on a noise floor in [-2, 2). */
function scriptedLogits(vocab: Vocab, cands: Candidate[]): (ctx: LogitContext) => Float32Array {
  return ({ ids }) => {
    const logits = noise(vocab.size, ids);
    const written = concatBytes(vocab, ids);
    const mass = new Map<number, number>();
    let total = 0;
    for (const c of cands) {
      if (!startsWith(c.bytes, written)) continue;
      let next: number | undefined;
      if (c.bytes.length === written.length) next = vocab.stopIds[vocab.stopIds.length - 1];
      else {
        // The tokenizer's own split while the output follows it, else the longest token that continues the text.
        const canonical = ids.every((t, i) => c.ids[i] === t) ? c.ids[ids.length] : undefined;
        const ok =
          canonical !== undefined &&
          startsWith(c.bytes.subarray(written.length), vocab.bytes[canonical]!) &&
          vocab.bytes[canonical]!.length > 0;
        next = ok ? canonical : longestToken(vocab, c.bytes.subarray(written.length));
      }
      if (next === undefined) continue;
      mass.set(next, (mass.get(next) ?? 0) + c.weight);
      total += c.weight;
    }
    for (const [id, m] of mass) logits[id] = PREFERRED_LOGIT + Math.log(m / total);
    return logits;
  };
}

/** Deterministic noise in [-2, 2) per (output so far, token id). */
export function noise(size: number, ids: readonly number[], scale = 2): Float32Array {
  let h = FNV_OFFSET;
  for (const t of ids) h = fnv1aStep(h, t);
  const out = new Float32Array(size);
  for (let i = 0; i < size; i++) {
    let x = Math.imul(h ^ Math.imul(i, 0x9e3779b1), 0x85ebca6b);
    x ^= x >>> 13;
    x = Math.imul(x, 0xc2b2ae35);
    x ^= x >>> 16;
    out[i] = ((x >>> 0) / 4294967296) * 2 * scale - scale;
  }
  return out;
}

function validate(request: ChatCompletionRequest | CompletionCreateParams): void {
  // The checks web-llm makes, so a request the real engine rejects fails here too.
  if (request.top_logprobs != null) {
    if (!request.logprobs) throw 'top_logprobs requires logprobs to be true.';
    if (!(request.top_logprobs >= 0 && request.top_logprobs <= 5))
      throw `Make sure 0 < top_logprobs <= 5. Got ${request.top_logprobs}`;
  }
  if (request.top_p != null && !(request.top_p > 0 && request.top_p <= 1)) throw 'Make sure 0 < top_p <= 1.';
  if (request.seed != null && !Number.isInteger(request.seed))
    throw `\`seed\` should be an integer, but got ${request.seed}`;
  if (request.repetition_penalty != null && !(request.repetition_penalty > 0))
    throw 'Make sure repetition_penalty > 0.';
  for (const k of ['frequency_penalty', 'presence_penalty'] as const) {
    const v = request[k];
    if (v != null && !(v >= -2 && v <= 2)) throw `Make sure -2 <= ${k} <= 2.`;
  }
}

function usage(prompt: number, completion: number) {
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    extra: {
      e2e_latency_s: 0,
      prefill_tokens_per_s: 0,
      decode_tokens_per_s: 0,
      time_to_first_token_s: 0,
      time_per_output_token_s: 0,
    },
  };
}
