// llama.cpp's (wllama's) decoder for the shared Self-RAG generator (../shared/self-rag.ts).
// What differs from web-llm is llama.cpp's: the grammar dialect (GBNF, slots as token
// ids), log-probs taken before the grammar (read by token id, ./slots.ts), and a prompt
// cache that keeps the longest shared prefix, so each candidate of a step prefills only
// its passage. Errors are mapped to the shared kinds by ./errors.ts.
import type { RetrievalDecisionRequest, RetrieveProbs, SegmentRequest } from '../../core/ports';
import { ISREL, ISSUP, ISUSE, RETRIEVE } from '../../core/reflection-tokens';
import { GeneratorError } from '../errors';
import { ONE_LINE, parseForm, SLOT_REPLIES, slotSpellings, type Form, type SlotName } from '../form';
import { nativeDecisionPrompt, nativeSegmentPrompt } from '../prompts';
import { guarded } from '../shared/guard';
import type { ChatRequest, Decoder, Meter, NativeRead, TextRequest, TokenReply } from '../shared/decoder';
import { malformed, SelfRagGenerator, throwIfAborted } from '../shared/self-rag';
import { wllamaError } from './errors';
import { formToGbnf, type SlotTokens } from './gbnf';
import type { WllamaChatChunk, WllamaHost, WllamaTimings, WllamaTokenLogprob } from './protocol';
import { groupAt, readGroupIds, readSlotIds, tokenAt } from './slots';

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
  private reflectionIds: Promise<Map<string, number>> | undefined;
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

  async nativeSegment(req: SegmentRequest, maxTokens: number): Promise<NativeRead> {
    const ids = await this.reflection();
    const group = (names: readonly string[]): number[] | null => {
      const g = names.map((n) => ids.get(n));
      return g.every((x) => x !== undefined) ? (g as number[]) : null;
    };
    const retrieveGroup = group([RETRIEVE.retrieval, RETRIEVE.noRetrieval, RETRIEVE.continueEvidence]);
    const prompt = nativeSegmentPrompt(req.question, req.previous, req.passage);
    const reply = await this.complete(prompt, maxTokens, req.signal, [
      RETRIEVE.retrieval,
      RETRIEVE.noRetrieval,
      RETRIEVE.continueEvidence,
    ]);
    const problems: string[] = [];
    if (reply.finish === 'length') problems.push('the reply was cut off at the token limit');
    const read = (names: readonly string[], what: string, wanted: boolean): number[] | undefined => {
      if (!wanted) return undefined;
      const g = group(names);
      const hit = g && readGroupIds(reply.tokens, g);
      if (!hit) problems.push(`missing ${what} token`);
      return hit?.probs;
    };
    const rel = read([ISREL.relevant, ISREL.irrelevant], 'relevance', !!req.passage);
    const sup = read([ISSUP.full, ISSUP.partial, ISSUP.none], 'support', !!req.passage);
    const use = read(ISUSE, 'utility', true);
    const reflection = new Set(ids.values());
    const useIds = group(ISUSE) ?? [];
    const useAt = reply.tokens.findIndex((t) => useIds.includes(t.id));
    const segTokens = useAt >= 0 ? reply.tokens.slice(0, useAt) : reply.tokens;
    const textTokens = segTokens.filter((t) => !reflection.has(t.id));
    const text = textTokens
      .map((t) => t.token)
      .join('')
      .trim();
    if (!text) problems.push('no answer text');
    // The token that ended the reply is the model's retrieval decision for the next segment, but
    // llama.cpp drops a stop word's log-probs: read that position again with one more token,
    // which costs almost no prefill (the prompt cache holds the prompt and the reply).
    let next: number[] | undefined;
    let ended = reply.finish === 'stop';
    const last = useAt >= 0 ? reply.tokens[useAt + 1] : undefined;
    if (last && retrieveGroup) {
      // Ended by the end-of-text token, whose log-probs are kept: the group is read there.
      next = groupAt(last, retrieveGroup);
    } else if (useAt >= 0 && reply.finish === 'stop' && retrieveGroup) {
      const probe = await this.complete(prompt + reply.text, 1, req.signal);
      const at = probe.tokens[0];
      if (at) {
        next = groupAt(at, retrieveGroup);
        ended = !retrieveGroup.includes(at.id);
      }
    }
    return {
      text,
      tokenCount: textTokens.length,
      logprob: textTokens.reduce((a, t) => a + t.logprob, 0),
      done: ended,
      ...(rel ? { rel } : {}),
      ...(sup ? { sup } : {}),
      ...(use ? { use } : {}),
      ...(next ? { next } : {}),
      problems,
    };
  }

  async nativeDecision(req: RetrievalDecisionRequest): Promise<RetrieveProbs> {
    const ids = await this.reflection();
    const g = [RETRIEVE.retrieval, RETRIEVE.noRetrieval, RETRIEVE.continueEvidence].map((n) => ids.get(n));
    const reply = await this.complete(nativeDecisionPrompt(req.question, req.previous), 1, req.signal);
    const first = reply.tokens[0];
    if (!first || g.some((x) => x === undefined))
      throw malformed('the retrieval decision (the model has no reflection tokens)', reply.text);
    const p = (id: number): number =>
      first.id === id
        ? Math.exp(first.logprob)
        : Math.exp(first.top_logprobs.find((t) => t.id === id)?.logprob ?? -Infinity);
    const probs = { retrieval: p(g[0]!), noRetrieval: p(g[1]!), continueEvidence: p(g[2]!) };
    if (probs.retrieval + probs.noRetrieval === 0)
      throw malformed('the retrieval decision (no retrieval token among the top tokens)', reply.text);
    return probs;
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

  private reflection(): Promise<Map<string, number>> {
    this.reflectionIds ??= (async () => {
      const names = [...Object.values(RETRIEVE), ...Object.values(ISREL), ...Object.values(ISSUP), ...ISUSE];
      const ids = await this.engine.tokenIds(names);
      const map = new Map<string, number>();
      names.forEach((n, i) => {
        const seq = ids[i];
        if (seq && seq.length === 1) map.set(n, seq[0]!);
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
    return this.run(
      req.signal,
      (id, onChunk) =>
        this.engine.chatStream(
          id,
          {
            messages: req.messages,
            max_tokens: req.maxTokens,
            ...(grammar ? { grammar } : {}),
            logprobs: true,
            top_logprobs: this.opts.nProbs,
            n_probs: this.opts.nProbs,
            ...this.sampling(),
          },
          onChunk,
        ),
      req.onText,
      req.enough,
    );
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
