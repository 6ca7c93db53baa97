// llama.cpp's (wllama's) decoder for the shared Self-RAG generator (../shared/self-rag.ts).
// What differs from web-llm is llama.cpp's: the grammar dialect (GBNF, slots as token
// ids), log-probs taken before the grammar (read by token id, ./slots.ts), and a prompt
// cache that keeps the longest shared prefix, so each candidate of a step prefills only
// its passage. Errors are mapped to the shared kinds by ./errors.ts.
import type { RetrievalDecisionRequest, SegmentRequest } from '../../core/ports';
import { ISSUP, ISUSE } from '../../core/reflection-tokens';
import { GeneratorError } from '../errors';
import { ONE_LINE, parseForm, SLOT_REPLIES, slotSpellings, type Form, type SlotName } from '../form';
import { nativeDecisionPrompt, nativeSegmentPrompt } from '../prompts';
import { guarded } from '../shared/guard';
import type { ChatRequest, Decoder, Meter, TextRequest, TokenReply } from '../shared/decoder';
import { NATIVE_STOPS, type NativeReply, type NativeToken, REFLECTION_STRINGS } from '../shared/native-read';
import { malformed, SelfRagGenerator, throwIfAborted } from '../shared/self-rag';
import { wllamaError } from './errors';
import { formToGbnf, type SlotTokens } from './gbnf';
import type { WllamaChatChunk, WllamaHost, WllamaTimings, WllamaTokenLogprob } from './protocol';
import { readSlotIds, tokenAt } from './slots';

export type WllamaEngine = Pick<WllamaHost, 'chatStream' | 'complete' | 'abort' | 'tokenIds'>;

export interface WllamaGeneratorOptions {
  native: boolean;
  /** 0 decodes greedily. llama.cpp reports log-probs before temperature, so any temperature keeps them the model's own. */
  temperature: number;
  seed: number;
  maxSegmentTokens: number;
  /**
   * How many top tokens llama.cpp reports per position; a group's tokens beyond them count as 0.
   * Kept small: wllama 3.8.1 fails ("Invalid typed array length") when any reported token's text
   * is not valid UTF-8 (a lone byte token), and a long top list reaches such tokens sooner.
   */
  nProbs: number;
  /** Send a step's candidates together, for llama.cpp to decode as one batch (../shared/self-rag.ts). */
  together: boolean;
}

/** A critique's retry after an unreadable reply: as many alternatives as a slot has words. */
const FEW_ALTERNATIVES = 5;

export const WLLAMA_DEFAULTS: WllamaGeneratorOptions = {
  native: false,
  temperature: 0,
  seed: 0,
  maxSegmentTokens: 96,
  nProbs: 20,
  together: false,
};

/** What the prompt cache saved, from llama.cpp's own timings. */
export interface PrefillStats {
  /** Prompt tokens actually computed. */
  prefilled: number;
  /** Prompt tokens reused from the cache. */
  cached: number;
  decoded: number;
  decodeMs: number;
  /** Time llama.cpp spent computing prompt tokens (timings.prompt_ms). */
  prefillMs: number;
}

type Reply = TokenReply<WllamaTokenLogprob>;

/** The Generator and Writer ports over llama.cpp, with what its prompt cache saved. */
export class WllamaGenerator extends SelfRagGenerator<Reply> {
  constructor(engine: WllamaEngine, opts: Partial<WllamaGeneratorOptions> = {}) {
    const o = { ...WLLAMA_DEFAULTS, ...opts };
    super((meter) => new WllamaDecoder(engine, o, meter), o);
  }

  prefill(): PrefillStats {
    return (this.decoder as WllamaDecoder).prefill();
  }

  override resetCost(): void {
    super.resetCost();
    (this.decoder as WllamaDecoder).resetPrefill();
  }
}

class WllamaDecoder implements Decoder<Reply> {
  private stats: PrefillStats = { prefilled: 0, cached: 0, decoded: 0, decodeMs: 0, prefillMs: 0 };
  private slotTokens: Promise<SlotTokens> | undefined;
  private reflectionIds: Promise<Map<number, string>> | undefined;
  private nextId = 1;
  private readonly running = new Set<number>();

  constructor(
    private readonly engine: WllamaEngine,
    private opts: WllamaGeneratorOptions,
    private readonly meter: Meter,
  ) {}

  checkTemperature(temperature: number): void {
    if (!(temperature >= 0) || !Number.isFinite(temperature))
      throw new RangeError(`Temperature must be 0 or more, got ${temperature}.`);
  }

  setTemperature(temperature: number): void {
    this.opts = { ...this.opts, temperature };
  }

  interrupt(): void {
    for (const id of this.running) this.engine.abort(id);
  }

  prefill(): PrefillStats {
    return { ...this.stats };
  }

  resetPrefill(): void {
    this.stats = { prefilled: 0, cached: 0, decoded: 0, decodeMs: 0, prefillMs: 0 };
  }

  textLogprob(reply: Reply, chars: number): { logprob: number; count: number } {
    let pos = 0;
    let logprob = 0;
    let count = 0;
    for (const t of reply.tokens) {
      if (pos >= chars) break;
      logprob += t.logprob;
      count++;
      pos += t.token.length;
    }
    return { logprob, count };
  }

  async text(req: TextRequest): Promise<{ text: string; promptTokens: number; completionTokens: number }> {
    throwIfAborted(req.signal);
    const before = { ...this.stats };
    const reply = await this.run(
      req.signal,
      (id, onChunk) =>
        this.engine.chatStream(
          id,
          {
            messages: [
              ...(req.system !== undefined ? [{ role: 'system', content: req.system }] : []),
              { role: 'user', content: req.user },
            ],
            max_tokens: req.maxTokens,
            ...(req.oneLine ? { grammar: formToGbnf(ONE_LINE) } : {}),
            ...this.sampling(),
          },
          onChunk,
        ),
      req.onText,
    );
    return {
      text: reply.text,
      promptTokens: this.stats.prefilled - before.prefilled,
      completionTokens: this.stats.decoded - before.decoded,
    };
  }

  async nativeSegment(req: SegmentRequest, maxTokens: number): Promise<NativeReply> {
    const names = await this.reflection();
    const prompt = nativeSegmentPrompt(req.question, req.previous, req.passage);
    const reply = await this.complete(prompt, maxTokens, req.signal, [...NATIVE_STOPS]);
    // llama.cpp keeps the end-of-text token's log-probs but drops a stop word's, the model's next
    // retrieval decision. A closing critique (support or utility) followed by one more token ended
    // at the end of the text. After any other stop the position after the reply is read again with
    // one more token, which costs almost no prefill (the prompt cache holds the prompt and the
    // reply): a decision there was the stop word; the last token written again was the end of text.
    const n = reply.tokens.length;
    const closing = names.get(reply.tokens[n - 2]?.id ?? -1);
    let endAt =
      n > 0 && !names.has(reply.tokens[n - 1]!.id) && closing !== undefined && CLOSING.includes(closing) ? n - 1 : -1;
    let decision: WllamaTokenLogprob | undefined;
    if (reply.finish === 'stop' && endAt < 0 && knowsDecisions(names)) {
      const at = (await this.complete(prompt + reply.text, 1, req.signal)).tokens[0];
      const name = at && names.get(at.id);
      if (name !== undefined && NATIVE_STOPS.includes(name)) decision = at;
      else if (at && n > 0 && at.id === reply.tokens[n - 1]!.id) endAt = n - 1;
    }
    const tokens = reply.tokens.map((t, i) => nativeToken(t, names, i === endAt));
    if (decision) tokens.push(nativeToken(decision, names, false));
    // The message from the tokens, each reflection token under its own name.
    const text = reply.tokens
      .filter((_, i) => i !== endAt)
      .map((t) => names.get(t.id) ?? t.token)
      .join('');
    return { text, tokens, finish: reply.finish };
  }

  async nativeDecision(req: RetrievalDecisionRequest): Promise<{ first: NativeToken | undefined; text: string }> {
    const names = await this.reflection();
    const reply = await this.complete(nativeDecisionPrompt(req.question, req.previous), 1, req.signal);
    if (!knowsDecisions(names))
      throw malformed('the retrieval decision (the model has no reflection tokens)', reply.text);
    const first = reply.tokens[0];
    return { first: first && nativeToken(first, names, false), text: reply.text };
  }

  /** The slot's group probabilities: by token id when the grammar fixed them, else unavailable. */
  async readSlot(form: Form, name: SlotName, reply: Reply): Promise<number[] | null> {
    const joined = reply.tokens.map((t) => t.token).join('');
    const span = parseForm(form, joined).spans[name];
    const alts = (await this.slotIds())[name];
    if (!span || !alts) return null;
    return readSlotIds(reply.tokens, tokenAt(reply.tokens, span[0]), alts);
  }

  private slotIds(): Promise<SlotTokens> {
    this.slotTokens ??= (async () => {
      const out: SlotTokens = {};
      for (const form of SLOT_REPLIES) {
        for (const item of form) {
          if (item.kind !== 'slot' || out[item.name]) continue;
          const spellings = slotSpellings(item);
          const ids = await this.engine.tokenIds(spellings.flat());
          if (!ids.every((x): x is number[] => !!x && x.length > 0)) continue;
          let at = 0;
          out[item.name] = spellings.map((sp) => sp.map(() => ids[at++]!));
        }
      }
      return out;
    })();
    return this.slotTokens;
  }

  /** The loaded model's reflection tokens by id (only those that are one token of its vocabulary). */
  private reflection(): Promise<Map<number, string>> {
    this.reflectionIds ??= (async () => {
      const ids = await this.engine.tokenIds([...REFLECTION_STRINGS]);
      const map = new Map<number, string>();
      REFLECTION_STRINGS.forEach((n, i) => {
        const seq = ids[i];
        if (seq && seq.length === 1) map.set(seq[0]!, n);
      });
      return map;
    })();
    return this.reflectionIds;
  }

  private sampling(): Record<string, unknown> {
    // Penalties and logit bias neutral: they would change the probabilities read at the slots.
    return {
      temperature: this.opts.temperature,
      seed: this.opts.seed,
      top_k: 0,
      top_p: 1,
      min_p: 0,
      repeat_penalty: 1,
      frequency_penalty: 0,
      presence_penalty: 0,
      cache_prompt: true,
    };
  }

  async chat(req: ChatRequest): Promise<Reply> {
    const grammar = req.form ? formToGbnf(req.form, await this.slotIds()) : undefined;
    const ask = (alternatives: number) =>
      this.run(
        req.signal,
        (id, onChunk) =>
          this.engine.chatStream(
            id,
            {
              messages: req.messages,
              max_tokens: req.maxTokens,
              ...(grammar ? { grammar } : {}),
              logprobs: true,
              // Alternatives only where a slot's are read (a critique's one-word form). A free-text
              // segment needs only its own tokens' log-probabilities: twenty alternatives a token are
              // twenty times the reply's JSON through wllama's glue, and among them byte pieces of a
              // character split across tokens, which that glue cannot carry (the reply fails to parse).
              ...(alternatives > 0 ? { top_logprobs: alternatives, n_probs: alternatives } : {}),
              ...this.sampling(),
            },
            onChunk,
          ),
        req.onText,
        req.enough,
      );
    if (!req.form) return ask(0);
    try {
      return await ask(this.opts.nProbs);
    } catch (e) {
      // A byte piece among a critique's alternatives (seen in a thread's follow-up with Qwen 0.5B):
      // asked again with the few a slot reads (utility has five words), which rarely reach one.
      const unreadable = e instanceof GeneratorError && e.kind === 'malformed-output';
      if (!unreadable || req.signal?.aborted || this.opts.nProbs <= FEW_ALTERNATIVES) throw e;
      return ask(FEW_ALTERNATIVES);
    }
  }

  private async complete(prompt: string, maxTokens: number, signal?: AbortSignal, stop?: string[]): Promise<Reply> {
    const id = this.nextId++;
    return this.guard(signal, id, async () => {
      const res = await this.engine.complete(id, {
        prompt,
        max_tokens: maxTokens,
        n_probs: this.opts.nProbs,
        logprobs: this.opts.nProbs,
        ...(stop ? { stop } : {}),
        ...this.sampling(),
      });
      this.account(res.timings, res.usage);
      const choice = res.choices[0];
      return {
        text: choice?.text ?? '',
        tokens: choice?.logprobs?.content ?? [],
        finish: choice?.finish_reason ?? null,
      };
    });
  }

  /**
   * One streamed chat request; streaming also survives output that is not valid UTF-8 (non-streaming
   * replies fail to parse). `enough` stops it early: the request is aborted and the reply ends 'enough'.
   */
  private run(
    signal: AbortSignal | undefined,
    start: (id: number, onChunk: (c: WllamaChatChunk) => void) => Promise<void>,
    onText?: (text: string) => void,
    enough?: (text: string) => boolean,
  ): Promise<Reply> {
    const id = this.nextId++;
    return this.guard(signal, id, async () => {
      let text = '';
      const tokens: WllamaTokenLogprob[] = [];
      let finish: string | null = null;
      let timings: WllamaTimings | undefined;
      let usage: { prompt_tokens: number; completion_tokens: number } | undefined;
      let stopped = false;
      try {
        await start(id, (chunk) => {
          if (stopped) return;
          if (chunk.timings) timings = chunk.timings;
          if (chunk.usage) usage = chunk.usage;
          const choice = chunk.choices[0];
          if (!choice) return;
          text += choice.delta.content ?? '';
          tokens.push(...(choice.logprobs?.content ?? []));
          if (choice.finish_reason) finish = choice.finish_reason;
          onText?.(text);
          if (!finish && enough?.(text)) {
            stopped = true;
            finish = 'enough';
            this.engine.abort(id);
          }
        });
      } catch (e) {
        // Our own stop, not the caller's: the reply so far is the reply.
        if (!stopped || signal?.aborted) throw e;
      }
      if (stopped && !usage) usage = { prompt_tokens: 0, completion_tokens: tokens.length };
      this.account(timings, usage);
      if (text.includes('\uFFFD') || tokens.some((t) => t.token.includes('\uFFFD'))) {
        throw new GeneratorError(
          'malformed-output',
          'The model wrote bytes that are not valid text (invalid UTF-8).',
          'Retry, or choose another model; the model file may be damaged or not meant for text. Evidence-only mode does not need the model.',
          text.slice(0, 300),
        );
      }
      return { text, tokens, finish };
    });
  }

  private async guard<T>(signal: AbortSignal | undefined, id: number, work: () => Promise<T>): Promise<T> {
    this.running.add(id);
    try {
      return await guarded(
        this.meter,
        signal,
        () => void this.engine.abort(id),
        (err) => wllamaError(err),
        work,
      );
    } finally {
      this.running.delete(id);
    }
  }

  private account(
    t: WllamaTimings | undefined,
    usage: { prompt_tokens: number; completion_tokens: number } | undefined,
  ): void {
    const prefilled = t?.prompt_n ?? usage?.prompt_tokens ?? 0;
    const decoded = t?.predicted_n ?? usage?.completion_tokens ?? 0;
    this.meter.tokens(prefilled, decoded);
    this.stats.prefilled += prefilled;
    this.stats.cached += t?.cache_n ?? 0;
    this.stats.decoded += decoded;
    this.stats.decodeMs += t?.predicted_ms ?? 0;
    this.stats.prefillMs += t?.prompt_ms ?? 0;
  }
}

/** Whether the model has each retrieval decision as one token (else it is no native Self-RAG model). */
function knowsDecisions(names: ReadonlyMap<number, string>): boolean {
  const known = new Set(names.values());
  return NATIVE_STOPS.every((d) => known.has(d));
}

/** The critiques that close a segment: after one, the model writes its next decision or ends. */
const CLOSING: readonly string[] = [...Object.values(ISSUP), ...ISUSE];

/**
 * llama.cpp's token in the shared shape: a native model's reflection tokens are known by their ids
 * (their text depends on how the vocabulary renders special tokens), and so are the alternatives.
 */
function nativeToken(t: WllamaTokenLogprob, names: ReadonlyMap<number, string>, end: boolean): NativeToken {
  const alternatives: Record<string, number> = {};
  for (const alt of t.top_logprobs) {
    const name = names.get(alt.id);
    if (name !== undefined) alternatives[name] = alt.logprob;
  }
  const reflection = names.get(t.id);
  if (reflection !== undefined) alternatives[reflection] = t.logprob;
  return {
    text: t.token,
    logprob: t.logprob,
    ...(reflection !== undefined ? { reflection } : {}),
    ...(end ? { end: true } : {}),
    alternatives,
  };
}
