// web-llm's decoder for the shared Self-RAG generator (../shared/self-rag.ts): chat and
// completion requests with web-llm's grammar and top log-probs, slots read from token
// strings aligned to the message text (./slots.ts), and web-llm's errors mapped to the
// shared kinds (../errors.ts classifies its plain-string worker errors).
import type {
  ChatCompletionMessageParam,
  ChatCompletionRequestNonStreaming,
  ChatCompletionRequestStreaming,
} from '@mlc-ai/web-llm';
import type { RetrievalDecisionRequest, SegmentRequest } from '../../core/ports';
import { abortError, classifyError } from '../errors';
import { findSlot, formToGrammar, ONE_LINE, parseForm, slotSpellings, type Form, type SlotName } from '../form';
import { nativeDecisionPrompt, nativeSegmentPrompt } from '../prompts';
import { guarded } from '../shared/guard';
import type { ChatRequest, Decoder, Meter, TextRequest, TokenReply } from '../shared/decoder';
import { NATIVE_STOPS, type NativeReply, type NativeToken, REFLECTION_STRINGS } from '../shared/native-read';
import { SelfRagGenerator, throwIfAborted } from '../shared/self-rag';
import { NEUTRAL_PENALTIES, samplingParams, type ChatEngine, type SamplingSettings } from './engine';
import { alignTokens, readSlotBounded, spanLogprob, type TokenLogprob } from './slots';

export interface EngineGeneratorOptions extends SamplingSettings {
  /** Read reflection tokens directly (a native Self-RAG model) instead of prompting for them. */
  native: boolean;
  /** Token budget of one segment's text. */
  maxSegmentTokens: number;
}

export const DEFAULT_OPTIONS: EngineGeneratorOptions = { native: false, temperature: 0, seed: 0, maxSegmentTokens: 96 };

const TOP_LOGPROBS = 5; // web-llm's maximum

type Reply = TokenReply<TokenLogprob>;

/** The Generator and Writer ports over a web-llm engine. */
export class EngineGenerator extends SelfRagGenerator<Reply> {
  constructor(engine: ChatEngine, opts: Partial<EngineGeneratorOptions> = {}) {
    const o = { ...DEFAULT_OPTIONS, ...opts };
    samplingParams(o); // reject bad settings now, not mid-answer
    super((meter) => new WebllmDecoder(engine, o, meter), o);
  }
}

class WebllmDecoder implements Decoder<Reply> {
  constructor(
    private readonly engine: ChatEngine,
    private sampling: SamplingSettings,
    private readonly meter: Meter,
  ) {}

  checkTemperature(temperature: number): void {
    samplingParams({ ...this.sampling, temperature });
  }

  setTemperature(temperature: number): void {
    this.sampling = { ...this.sampling, temperature };
  }

  interrupt(): void {
    this.engine.interruptGenerate();
  }

  async readSlot(form: Form, name: SlotName, reply: Reply): Promise<number[] | null> {
    // Every spelling of one alternative added up; the tokens are placed in the message (see alignTokens).
    const item = findSlot(form, name);
    const span = parseForm(form, reply.text).spans[name];
    if (!item || !span) return null;
    return (
      readSlotBounded(reply.tokens, reply.text, span, slotSpellings(item), alignTokens(reply.tokens, reply.text))
        ?.probs ?? null
    );
  }

  textLogprob(reply: Reply, chars: number): { logprob: number; count: number } {
    return spanLogprob(reply.tokens, reply.text, [0, chars]);
  }

  async text(req: TextRequest): Promise<{ text: string; promptTokens: number; completionTokens: number }> {
    throwIfAborted(req.signal);
    const request: ChatCompletionRequestNonStreaming = {
      messages: [
        ...(req.system !== undefined ? [{ role: 'system' as const, content: req.system }] : []),
        { role: 'user', content: req.user },
      ],
      max_tokens: req.maxTokens,
      ...(req.oneLine ? { response_format: { type: 'grammar' as const, grammar: formToGrammar(ONE_LINE) } } : {}),
      ...samplingParams(this.sampling),
    };
    const res = await this.guard(req.signal, () => this.engine.chatCompletion(request));
    const promptTokens = res.usage?.prompt_tokens ?? 0;
    const completionTokens = res.usage?.completion_tokens ?? 0;
    this.meter.tokens(promptTokens, completionTokens);
    const choice = res.choices[0];
    if (choice?.finish_reason === 'abort') throw abortError();
    return { text: choice?.message.content ?? '', promptTokens, completionTokens };
  }

  async nativeSegment(req: SegmentRequest, maxTokens: number): Promise<NativeReply> {
    const prompt = nativeSegmentPrompt(req.question, req.previous, req.passage);
    // The stop string that ended the reply is cut from the text, but its token keeps its
    // log-probs: the model's retrieval decision for the next segment stays in the tokens.
    const reply = await this.complete(prompt, maxTokens, req.signal, [...NATIVE_STOPS]);
    return { text: reply.text, tokens: reply.tokens.map(nativeToken), finish: reply.finish };
  }

  async nativeDecision(req: RetrievalDecisionRequest): Promise<{ first: NativeToken | undefined; text: string }> {
    const reply = await this.complete(nativeDecisionPrompt(req.question, req.previous), 1, req.signal);
    const first = reply.tokens[0];
    return { first: first && nativeToken(first), text: reply.text };
  }

  async chat(req: ChatRequest): Promise<Reply> {
    const messages: ChatCompletionMessageParam[] = req.messages.map((m) => ({ ...m }) as ChatCompletionMessageParam);
    const base = {
      messages,
      max_tokens: req.maxTokens,
      logprobs: true,
      top_logprobs: TOP_LOGPROBS,
      ...(req.form ? { response_format: { type: 'grammar' as const, grammar: formToGrammar(req.form) } } : {}),
      ...samplingParams(this.sampling),
      ...NEUTRAL_PENALTIES,
    };
    if (!req.onText && !req.enough) {
      const res = await this.guard(req.signal, () => this.engine.chatCompletion({ ...base, stream: false }));
      this.meter.tokens(res.usage?.prompt_tokens, res.usage?.completion_tokens);
      const choice = res.choices[0];
      if (choice?.finish_reason === 'abort') throw abortError();
      return {
        text: choice?.message.content ?? '',
        tokens: (choice?.logprobs?.content ?? []) as TokenLogprob[],
        finish: choice?.finish_reason ?? null,
      };
    }
    const request: ChatCompletionRequestStreaming = { ...base, stream: true, stream_options: { include_usage: true } };
    return this.guard(req.signal, async () => {
      const stream = await this.engine.chatCompletion(request);
      let text = '';
      const tokens: TokenLogprob[] = [];
      let finish: string | null = null;
      let usage: { prompt_tokens?: number; completion_tokens?: number } | undefined;
      let stopped = false;
      for await (const chunk of stream) {
        const choice = chunk.choices[0];
        if (chunk.usage) usage = chunk.usage;
        if (!choice || stopped) continue;
        text += choice.delta.content ?? '';
        tokens.push(...((choice.logprobs?.content ?? []) as TokenLogprob[]));
        if (choice.finish_reason) finish = choice.finish_reason;
        req.onText?.(text);
        if (!finish && req.enough?.(text)) {
          // web-llm ends the stream with finish 'abort' after an interrupt: that one is ours.
          stopped = true;
          this.engine.interruptGenerate();
        }
      }
      this.meter.tokens(usage?.prompt_tokens, usage?.completion_tokens ?? tokens.length);
      if (stopped) return { text, tokens, finish: 'enough' };
      if (finish === 'abort') throw abortError();
      return { text, tokens, finish };
    });
  }

  private async complete(prompt: string, maxTokens: number, signal?: AbortSignal, stop?: string[]): Promise<Reply> {
    const res = await this.guard(signal, () =>
      this.engine.completion({
        prompt,
        max_tokens: maxTokens,
        logprobs: true,
        top_logprobs: TOP_LOGPROBS,
        stream: false,
        ...(stop ? { stop } : {}),
        ...samplingParams(this.sampling),
        ...NEUTRAL_PENALTIES,
      }),
    );
    this.meter.tokens(res.usage?.prompt_tokens, res.usage?.completion_tokens);
    const choice = res.choices[0];
    if (choice?.finish_reason === 'abort') throw abortError();
    return {
      text: choice?.text ?? '',
      tokens: (choice?.logprobs?.content ?? []) as TokenLogprob[],
      finish: choice?.finish_reason ?? null,
    };
  }

  /** Runs an engine call with abort wired to interruptGenerate and web-llm's errors classified. */
  private guard<T>(signal: AbortSignal | undefined, run: () => Promise<T>): Promise<T> {
    return guarded(this.meter, signal, () => this.engine.interruptGenerate(), classifyError, run);
  }
}

// Stop tokens get a log-prob entry of their own but are not part of the message.
const STOP_TOKENS = new Set(['</s>', '<|im_end|>', '<|endoftext|>', '<|eot_id|>', '<|end_of_text|>', '<|end|>']);
const REFLECTION = new Set<string>(REFLECTION_STRINGS);

/**
 * web-llm's token in the shared shape. A native model's reflection tokens are single tokens of its
 * vocabulary, so they are known by their strings, and web-llm reports the top 5 by string.
 */
function nativeToken(t: TokenLogprob): NativeToken {
  const alternatives: Record<string, number> = {};
  for (const alt of t.top_logprobs) if (REFLECTION.has(alt.token)) alternatives[alt.token] = alt.logprob;
  const reflection = REFLECTION.has(t.token);
  if (reflection) alternatives[t.token] ??= t.logprob;
  return {
    text: t.token,
    logprob: t.logprob,
    ...(reflection ? { reflection: t.token } : {}),
    ...(STOP_TOKENS.has(t.token) ? { end: true } : {}),
    alternatives,
  };
}
