// A test double of web-llm's engine: the subset of MLCEngineInterface that the
// generator (src/generator) and web-llm's worker handler use. It follows a
// script, honours the grammar in `response_format` (so the reflection-slot
// constraint is really exercised), reports log-probs in web-llm's exact shape
// (`choices[0].logprobs.content[i].top_logprobs`, taken after the grammar mask
// and temperature, as web-llm does), counts tokens with the tiny models'
// tokenizer rule, honours max_tokens, seed and interruptGenerate. Without a
// script it writes a sensible answer from the passage it is given (e2e build).
import type {
  AppConfig,
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionRequest,
  ChatCompletionRequestNonStreaming,
  ChatCompletionRequestStreaming,
  ChatCompletionTokenLogprob,
  Completion,
  CompletionCreateParams,
  CompletionCreateParamsNonStreaming,
  CompletionCreateParamsStreaming,
  InitProgressCallback,
} from '@mlc-ai/web-llm';
import { FNV_OFFSET, fnv1aStep } from '../../src/core/fnv1a';
import { defaultReply } from './default-script';
import { parseGrammar, type GrammarItem } from './grammar';
import { countTokens, decodePieces } from './word-tokenizer';
import { mulberry32 } from '../../src/core/mulberry32';

/** Also the `model` field of every response: the production build must never contain it. */
export const SCRIPTED_ENGINE_MARKER = 'scripted-engine-double-7f3a';

/** Wanted probabilities of alternatives before the grammar mask (may include disallowed ones). */
export type Wanted = Record<string, number>;

export interface ScriptedReply {
  /** The free text (a grammar's `[^\n]+` item), or the whole reply when there is no grammar. */
  text?: string;
  /** Wanted distribution at each grammar slot, by the slot's rule name (e.g. `rel`). */
  slots?: Record<string, Wanted>;
  /** Without a grammar: the distribution at a position where the reply has this token. */
  tokenAlternatives?: Record<string, Wanted>;
  /** Reject the call with this string, as web-llm's worker reports errors. */
  error?: string;
}

export interface ScriptCall {
  kind: 'chat' | 'completion';
  /** Message contents by role, joined (chat), or the raw prompt (completion). */
  system: string;
  user: string;
  prompt: string;
  /** The chat's messages in order, and the last user message (what this turn answers). */
  messages: { role: string; content: string }[];
  last: string;
  grammar?: string;
  index: number;
}

export type Script = (call: ScriptCall) => ScriptedReply;

export interface CallRecord {
  call: ScriptCall;
  promptTokens: number;
  completionTokens: number;
  finish: string;
  temperature: number | null | undefined;
  topP: number | null | undefined;
}

export interface ScriptedEngineOptions {
  script?: Script | ScriptedReply[];
  /** Delay before each token (lets tests abort mid-decode and shows streaming in the e2e build). */
  tokenDelayMs?: number;
  /** Emulate BPE splits, e.g. `{ ' irrelevant': [' ir', 'relevant'] }`. */
  split?: Record<string, string[]>;
  /**
   * Pieces written as several byte tokens, e.g. `{ ' café': 3 }`: web-llm reports each
   * such token as "\ufffd" in the log-probs while the message text is correct.
   */
  byteTokens?: Record<string, number>;
}

interface Step {
  token: string;
  /** What the step adds to the message when it differs from `token` (byte tokens of one character). */
  text?: string;
  probs: [string, number][]; // sorted, most likely first; includes the sampled token
}

// Role markers and the assistant header of a ChatML-like template.
const PER_MESSAGE_TOKENS = 4;
const REPLY_HEADER_TOKENS = 3;

export class ScriptedEngine {
  readonly calls: CallRecord[] = [];
  private interrupted = false;
  private progress: InitProgressCallback | undefined;
  private appConfig: AppConfig | undefined;
  private loaded: string | undefined;
  private readonly script: Script;

  constructor(private readonly opts: ScriptedEngineOptions = {}) {
    const s = opts.script;
    this.script =
      typeof s === 'function' ? s : Array.isArray(s) ? (c) => s[c.index] ?? s[s.length - 1] ?? {} : defaultReply;
  }

  setInitProgressCallback(cb: InitProgressCallback): void {
    this.progress = cb;
  }
  getInitProgressCallback(): InitProgressCallback | undefined {
    return this.progress;
  }
  setAppConfig(config: AppConfig): void {
    this.appConfig = config;
  }
  setLogLevel(): void {}

  /** Pretends to load: `#fail=<kind>` at the end of a model URL makes it fail like web-llm would. */
  async reload(modelId: string | string[]): Promise<void> {
    const id = Array.isArray(modelId) ? modelId[0]! : modelId;
    const record = this.appConfig?.model_list.find((m) => m.model_id === id);
    if (this.appConfig && !record)
      throw new Error(
        `Cannot find model record in appConfig for ${id}. Please check if the model ID is correct and included in the model_list configuration.`,
      );
    const fail = /#fail=([\w-]+)/.exec(record?.model ?? '')?.[1];
    this.progress?.({
      progress: 0.25,
      timeElapsed: 0,
      text: 'Fetching param cache[1/4]: 12MB fetched. 25% completed, 0 secs elapsed.',
    });
    await tick(this.opts.tokenDelayMs ?? 0);
    if (fail === 'download') throw new Error('TypeError: Failed to fetch');
    if (fail === 'oom')
      throw new Error(
        'The WebGPU device was lost while loading the model. This issue often occurs due to running out of memory (OOM).',
      );
    this.progress?.({
      progress: 0.75,
      timeElapsed: 0,
      text: 'Loading GPU shader modules[3/4]: 75% completed, 0 secs elapsed.',
    });
    this.progress?.({ progress: 1, timeElapsed: 0, text: `Finish loading on WebGPU - ${SCRIPTED_ENGINE_MARKER}` });
    this.loaded = id;
  }

  async unload(): Promise<void> {
    this.loaded = undefined;
  }
  async resetChat(): Promise<void> {}
  async getMessage(): Promise<string> {
    return '';
  }
  async runtimeStatsText(): Promise<string> {
    return `${SCRIPTED_ENGINE_MARKER}: ${this.calls.length} calls`;
  }

  interruptGenerate(): void {
    this.interrupted = true;
  }

  chatCompletion(request: ChatCompletionRequestNonStreaming): Promise<ChatCompletion>;
  chatCompletion(request: ChatCompletionRequestStreaming): Promise<AsyncIterable<ChatCompletionChunk>>;
  chatCompletion(request: ChatCompletionRequest): Promise<AsyncIterable<ChatCompletionChunk> | ChatCompletion>;
  async chatCompletion(request: ChatCompletionRequest): Promise<AsyncIterable<ChatCompletionChunk> | ChatCompletion> {
    validate(request);
    const text = (role: string): string =>
      request.messages
        .filter((m) => m.role === role)
        .map((m) => (typeof m.content === 'string' ? m.content : ''))
        .join('\n');
    const grammar = request.response_format?.type === 'grammar' ? request.response_format.grammar : undefined;
    const messages = request.messages.map((m) => ({
      role: m.role,
      content: typeof m.content === 'string' ? m.content : '',
    }));
    const call: ScriptCall = {
      kind: 'chat',
      system: text('system'),
      user: text('user'),
      prompt: '',
      messages,
      last: messages.filter((m) => m.role === 'user').pop()?.content ?? '',
      index: this.calls.length,
      ...(grammar ? { grammar } : {}),
    };
    const promptTokens = request.messages.reduce(
      (n, m) => n + PER_MESSAGE_TOKENS + countTokens(typeof m.content === 'string' ? m.content : ''),
      REPLY_HEADER_TOKENS,
    );
    const run = this.start(call, request, promptTokens);
    if (request.stream) return this.streamChat(run, request.stream_options?.include_usage === true);
    const { steps, finish } = await run.all();
    return {
      id: `chatcmpl-${call.index}`,
      object: 'chat.completion',
      created: 0,
      model: SCRIPTED_ENGINE_MARKER,
      choices: [
        {
          index: 0,
          finish_reason: finish as ChatCompletion.Choice['finish_reason'],
          message: { role: 'assistant', content: textOf(steps) },
          logprobs: request.logprobs ? { content: steps.map((s) => entry(s, request.top_logprobs ?? 0)) } : null,
        },
      ],
      usage: usage(promptTokens, steps.length),
    } as ChatCompletion;
  }

  completion(request: CompletionCreateParamsNonStreaming): Promise<Completion>;
  completion(request: CompletionCreateParamsStreaming): Promise<AsyncIterable<Completion>>;
  completion(request: CompletionCreateParams): Promise<AsyncIterable<Completion> | Completion>;
  async completion(request: CompletionCreateParams): Promise<AsyncIterable<Completion> | Completion> {
    validate(request);
    if (request.stream) throw new Error('The scripted engine does not stream raw completions.');
    const call: ScriptCall = {
      kind: 'completion',
      system: '',
      user: '',
      prompt: request.prompt,
      messages: [],
      last: '',
      index: this.calls.length,
    };
    const promptTokens = countTokens(request.prompt);
    const { steps, finish } = await this.start(call, request, promptTokens).all();
    return {
      id: `cmpl-${call.index}`,
      object: 'text_completion',
      created: 0,
      model: SCRIPTED_ENGINE_MARKER,
      choices: [
        {
          index: 0,
          text: textOf(steps),
          finish_reason: finish,
          logprobs: request.logprobs ? { content: steps.map((s) => entry(s, request.top_logprobs ?? 0)) } : null,
        },
      ],
      usage: usage(promptTokens, steps.length),
    } as Completion;
  }

  /** Plans the reply, then hands it out token by token so interrupts and max_tokens land between tokens. */
  private start(call: ScriptCall, request: ChatCompletionRequest | CompletionCreateParams, promptTokens: number) {
    if (!this.loaded && this.appConfig)
      throw new Error(
        'Model not loaded before trying to complete ChatCompletionRequest. Please ensure you have called `MLCEngine.reload()`.',
      );
    this.interrupted = false;
    const reply = this.script(call);
    if (reply.error !== undefined) {
      const err = reply.error;
      return {
        all: () => Promise.reject(err),
        async *each(): AsyncGenerator<Step, string> {
          throw err;
        },
      };
    }
    const grammar =
      'response_format' in request && request.response_format?.type === 'grammar'
        ? parseGrammar(request.response_format.grammar ?? '')
        : undefined;
    const rng = mulberry32(request.seed ?? 0);
    const greedy = (request.top_p ?? 1) <= 1e-3;
    const temperature = Math.max(1e-6, request.temperature ?? 1);
    const planned = grammar
      ? planGrammar(grammar, reply, this.opts.split ?? {}, this.opts.byteTokens ?? {}, greedy, temperature, rng)
      : planFree(reply, this.opts.split ?? {});
    applyStop(planned, request.stop);
    const max = request.max_tokens ?? Infinity;
    const record: CallRecord = {
      call,
      promptTokens,
      completionTokens: 0,
      finish: 'stop',
      temperature: request.temperature,
      topP: request.top_p,
    };
    this.calls.push(record);
    const engine = this;
    async function* each(): AsyncGenerator<Step, string> {
      for (let i = 0; i < planned.length; i++) {
        await tick(engine.opts.tokenDelayMs ?? 0);
        if (engine.interrupted) return (record.finish = 'abort');
        if (i >= max) return (record.finish = 'length');
        record.completionTokens++;
        yield planned[i]!;
      }
      return (record.finish = 'stop');
    }
    return {
      each,
      async all(): Promise<{ steps: Step[]; finish: string }> {
        const steps: Step[] = [];
        const it = each();
        for (let r = await it.next(); ; r = await it.next()) {
          if (r.done) return { steps, finish: r.value };
          steps.push(r.value);
        }
      },
    };
  }

  private async *streamChat(
    run: ReturnType<ScriptedEngine['start']>,
    includeUsage: boolean,
  ): AsyncGenerator<ChatCompletionChunk> {
    const it = run.each();
    let n = 0;
    const top = 5;
    for (let r = await it.next(); ; r = await it.next()) {
      if (r.done) {
        yield {
          id: 'chunk',
          object: 'chat.completion.chunk',
          created: 0,
          model: SCRIPTED_ENGINE_MARKER,
          choices: [{ index: 0, delta: {}, finish_reason: r.value as 'stop' }],
        };
        if (includeUsage) {
          const rec = this.calls[this.calls.length - 1]!;
          yield {
            id: 'chunk',
            object: 'chat.completion.chunk',
            created: 0,
            model: SCRIPTED_ENGINE_MARKER,
            choices: [],
            usage: usage(rec.promptTokens, n),
          } as ChatCompletionChunk;
        }
        return;
      }
      n++;
      // Like web-llm, a token ending mid-character sends no chunk: its log-prob never arrives.
      if (r.value.text === '') continue;
      yield {
        id: 'chunk',
        object: 'chat.completion.chunk',
        created: 0,
        model: SCRIPTED_ENGINE_MARKER,
        choices: [
          {
            index: 0,
            delta: { role: 'assistant', content: r.value.text ?? r.value.token },
            finish_reason: null,
            logprobs: { content: [entry(r.value, top)] },
          },
        ],
      } as ChatCompletionChunk;
    }
  }
}

function validate(request: ChatCompletionRequest | CompletionCreateParams): void {
  // The same checks web-llm makes, so a request the real engine rejects fails here too.
  if (request.top_logprobs != null) {
    if (!request.logprobs) throw new Error('top_logprobs requires logprobs to be true.');
    if (!(request.top_logprobs >= 0 && request.top_logprobs <= 5))
      throw new Error(`Make sure 0 < top_logprobs <= 5. Got ${request.top_logprobs}`);
  }
  if (request.top_p != null && !(request.top_p > 0 && request.top_p <= 1)) throw new Error('Make sure 0 < top_p <= 1.');
  if (request.seed != null && !Number.isInteger(request.seed))
    throw new Error(`\`seed\` should be an integer, but got ${request.seed}`);
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

function entry(step: Step, top: number): ChatCompletionTokenLogprob {
  const bytes = (s: string): number[] => Array.from(new TextEncoder().encode(s));
  const p = step.probs.find(([t]) => t === step.token)?.[1] ?? 0;
  return {
    token: step.token,
    bytes: bytes(step.token),
    logprob: Math.log(p),
    top_logprobs: step.probs.slice(0, top).map(([t, q]) => ({ token: t, bytes: bytes(t), logprob: Math.log(q) })),
  };
}

// A text token's probability: fixed per token so sequence scores are reproducible.
/**
 * Stop strings as web-llm applies them: the reply ends at the first one and the
 * text is cut before it, but the token that completed it keeps its log-probs.
 */
function applyStop(steps: Step[], stop: string | string[] | null | undefined): void {
  const stops = stop == null ? [] : Array.isArray(stop) ? stop : [stop];
  if (!stops.length) return;
  let text = '';
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    const before = text;
    text += step.text ?? step.token;
    const at = Math.min(...stops.map((s) => text.indexOf(s)).filter((k) => k >= 0));
    if (Number.isFinite(at)) {
      step.text = text.slice(before.length, Math.max(before.length, at));
      steps.length = i + 1;
      return;
    }
  }
}

function textOf(steps: Step[]): string {
  return steps.map((s) => s.text ?? s.token).join('');
}

function textSteps(piece: string, byteTokens: Record<string, number>): Step[] {
  const n = byteTokens[piece];
  if (!n || n < 2) return [textStep(piece)];
  return Array.from({ length: n }, (_, i) => ({ ...textStep('\ufffd'), text: i === n - 1 ? piece : '' }));
}

function textStep(token: string): Step {
  // Per code point (its first UTF-16 unit), as default-script.ts hashes.
  let h = FNV_OFFSET;
  for (const c of token) h = fnv1aStep(h, c.charCodeAt(0));
  const p = 0.55 + ((h >>> 0) % 400) / 1000;
  return {
    token,
    probs: [
      [token, p],
      ['\u2026', 1 - p],
    ],
  };
}

function planFree(reply: ScriptedReply, split: Record<string, string[]>): Step[] {
  return decodePieces(reply.text ?? '', split).map((token) => {
    const wanted = reply.tokenAlternatives?.[token];
    if (!wanted) return textStep(token);
    const total = Object.values(wanted).reduce((a, b) => a + b, 0);
    const probs = Object.entries(wanted)
      .map(([t, w]) => [t, w / total] as [string, number])
      .sort((a, b) => b[1] - a[1]);
    return { token, probs };
  });
}

function planGrammar(
  items: GrammarItem[],
  reply: ScriptedReply,
  split: Record<string, string[]>,
  byteTokens: Record<string, number>,
  greedy: boolean,
  temperature: number,
  rng: () => number,
): Step[] {
  const steps: Step[] = [];
  for (const item of items) {
    if (item.kind === 'literal') {
      for (const t of decodePieces(item.text, split)) steps.push({ token: t, probs: [[t, 1]] });
    } else if (item.kind === 'line') {
      // `[^\n]+`: newlines are masked out, and at least one character is required.
      const text = (reply.text ?? '').replace(/\n+/g, ' ') || ' \u2026';
      for (const t of decodePieces(text, split)) steps.push(...textSteps(t, byteTokens));
    } else {
      steps.push(...planSlot(item.alternatives, reply.slots?.[item.rule], split, greedy, temperature, rng));
    }
  }
  return steps;
}

/** A slot as a real model over a token trie: mask to the allowed alternatives, temper, choose, walk the trie. */
function planSlot(
  allowed: string[],
  wanted: Wanted | undefined,
  split: Record<string, string[]>,
  greedy: boolean,
  temperature: number,
  rng: () => number,
): Step[] {
  const raw = allowed.map((a) => Math.max(wanted ? (wanted[a] ?? 0) : 1, 1e-6));
  const tempered = raw.map((w) => w ** (1 / temperature));
  const z = tempered.reduce((a, b) => a + b, 0);
  const q = tempered.map((w) => w / z);
  let chosen = 0;
  if (greedy) q.forEach((p, i) => (p > q[chosen]! ? (chosen = i) : 0));
  else {
    let u = rng();
    chosen = q.findIndex((p) => (u -= p) < 0);
    if (chosen < 0) chosen = q.length - 1;
  }
  const seqs = allowed.map((a) => decodePieces(a, split));
  const path = seqs[chosen]!;
  const steps: Step[] = [];
  for (let k = 0; k < path.length; k++) {
    const mass = new Map<string, number>();
    let total = 0;
    seqs.forEach((s, i) => {
      if (s.length <= k || !path.slice(0, k).every((t, j) => s[j] === t)) return;
      mass.set(s[k]!, (mass.get(s[k]!) ?? 0) + q[i]!);
      total += q[i]!;
    });
    steps.push({
      token: path[k]!,
      probs: [...mass].map(([t, m]) => [t, m / total] as [string, number]).sort((a, b) => b[1] - a[1]),
    });
  }
  return steps;
}

// A macrotask only when a delay is asked for: otherwise interrupts could not land, but runs stay fast.
function tick(ms: number): Promise<void> {
  return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
}
