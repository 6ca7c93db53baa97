// The core's Generator and Writer ports over a web-llm engine. Each candidate
// is one decode: the reply carries relevance, the segment, support, utility and
// the next step's retrieval decision, so critiques cost no extra prompt, and the
// next decideRetrieval on that path is answered from the same pass.
import type {
  ChatCompletionMessageParam,
  ChatCompletionRequestNonStreaming,
  ChatCompletionRequestStreaming,
} from '@mlc-ai/web-llm';
import type {
  GeneratedSegment,
  Generator,
  GeneratorCost,
  RetrievalDecisionRequest,
  RetrieveProbs,
  SegmentRequest,
  UseProbs,
  Writer,
} from '../core/ports';
import { ISREL, ISSUP, ISUSE, RETRIEVE } from '../core/reflection-tokens';
import { NEUTRAL_PENALTIES, samplingParams, type ChatEngine, type SamplingSettings } from './engine';
import { abortError, classifyError, GeneratorError } from './errors';
import {
  findSlot,
  formToGrammar,
  parseForm,
  partialText,
  RETRIEVAL_DECISION,
  SEGMENT_WITH_PASSAGE,
  SEGMENT_WITHOUT_PASSAGE,
  slotSpellings,
  type Form,
  type SlotName,
} from './form';
import {
  decisionUserMessage,
  nativeDecisionPrompt,
  nativeSegmentPrompt,
  segmentUserMessage,
  SYSTEM_DECISION,
  SYSTEM_WITH_PASSAGE,
  SYSTEM_WITHOUT_PASSAGE,
} from './prompts';
import { alignTokens, readNativeGroup, readSlotBounded, spanLogprob, type TokenLogprob } from './slots';

export interface EngineGeneratorOptions extends SamplingSettings {
  /** Read reflection tokens directly (a native Self-RAG model) instead of prompting for them. */
  native: boolean;
  /** Token budget of one segment's text. */
  maxSegmentTokens: number;
}

export const DEFAULT_OPTIONS: EngineGeneratorOptions = { native: false, temperature: 0, seed: 0, maxSegmentTokens: 96 };

// Labels and slot words of a prompted reply, beyond the segment itself.
const FORM_OVERHEAD_TOKENS = 40;
const TOP_LOGPROBS = 5; // web-llm's maximum
const MAX_REMEMBERED_DECISIONS = 512;

interface Reply {
  text: string;
  tokens: TokenLogprob[];
  finish: string | null;
}

export class EngineGenerator implements Generator, Writer {
  private opts: EngineGeneratorOptions;
  private spent: GeneratorCost = { promptTokens: 0, decodedTokens: 0, calls: 0 };
  /** Retrieval decisions already written at the end of a candidate, by path. */
  private readonly decided = new Map<string, RetrieveProbs>();

  constructor(
    private readonly engine: ChatEngine,
    opts: Partial<EngineGeneratorOptions> = {},
  ) {
    this.opts = { ...DEFAULT_OPTIONS, ...opts };
    samplingParams(this.opts); // reject bad settings now, not mid-answer
  }

  /** Applies from the next call: the loaded model stays, only sampling changes. */
  setTemperature(temperature: number): void {
    const next = { ...this.opts, temperature };
    samplingParams(next);
    this.opts = next;
    // Remembered decisions were sampled under the old temperature.
    this.decided.clear();
  }

  cost(): GeneratorCost {
    return { ...this.spent };
  }

  resetCost(): void {
    this.spent = { promptTokens: 0, decodedTokens: 0, calls: 0 };
  }

  async decideRetrieval(req: RetrievalDecisionRequest): Promise<RetrieveProbs> {
    throwIfAborted(req.signal);
    const known = this.decided.get(pathKey(req.question, req.previous));
    if (known) return { ...known };
    if (this.opts.native) return this.decideNative(req);
    const reply = await this.chat(SYSTEM_DECISION, decisionUserMessage(req.question, req.previous), RETRIEVAL_DECISION, 8, req.signal);
    const probs = readFormSlot(RETRIEVAL_DECISION, 'decision', reply, parseForm(RETRIEVAL_DECISION, reply.text));
    if (!probs) throw malformed('the retrieval decision', reply.text);
    return { retrieval: probs[0]!, noRetrieval: probs[1]! };
  }

  async generateSegments(reqs: SegmentRequest[]): Promise<GeneratedSegment[]> {
    const out: GeneratedSegment[] = [];
    // One at a time: the engine serialises requests anyway, and an abort stops the batch.
    for (const req of reqs) {
      throwIfAborted(req.signal);
      out.push(this.opts.native ? await this.segmentNative(req) : await this.segmentPrompted(req));
    }
    return out;
  }

  async write(instruction: string, opts: { maxTokens?: number; signal?: AbortSignal } = {}): Promise<string> {
    throwIfAborted(opts.signal);
    const request: ChatCompletionRequestNonStreaming = {
      messages: [{ role: 'user', content: instruction }],
      max_tokens: opts.maxTokens ?? 256,
      ...samplingParams(this.opts),
    };
    const res = await this.guard(opts.signal, () => this.engine.chatCompletion(request));
    this.count(res.usage?.prompt_tokens, res.usage?.completion_tokens);
    const choice = res.choices[0];
    if (choice?.finish_reason === 'abort') throw abortError();
    return (choice?.message.content ?? '').trim();
  }

  private async segmentPrompted(req: SegmentRequest): Promise<GeneratedSegment> {
    const form = req.passage ? SEGMENT_WITH_PASSAGE : SEGMENT_WITHOUT_PASSAGE;
    const system = req.passage ? SYSTEM_WITH_PASSAGE : SYSTEM_WITHOUT_PASSAGE;
    const reply = await this.chat(
      system,
      segmentUserMessage(req.question, req.previous, req.passage),
      form,
      this.opts.maxSegmentTokens + FORM_OVERHEAD_TOKENS,
      req.signal,
      req.onText,
    );
    // The message is the reply's text; the tokens are placed in it (see alignTokens).
    const parsed = parseForm(form, reply.text);
    const problems: string[] = [];
    // web-llm reports 'length' when the last token lands exactly on max_tokens, even
    // if that token completed the form; only an incomplete form was cut off.
    if (reply.finish === 'length' && parsed.missing.length) problems.push('the reply was cut off at the token limit');
    if (parsed.missing.length) problems.push(`missing ${parsed.missing.join(', ')}`);
    const slot = (name: 'rel' | 'sup' | 'use' | 'next'): number[] | undefined => {
      if (!parsed.spans[name]) return undefined;
      const probs = readFormSlot(form, name, reply, parsed);
      if (!probs) problems.push(`no probabilities for the ${name} slot`);
      return probs ?? undefined;
    };
    const rel = req.passage ? slot('rel') : undefined;
    const sup = req.passage ? slot('sup') : undefined;
    const use = slot('use');
    const next = slot('next');
    const text = (parsed.text ?? '').trim();
    const seq = parsed.textSpan ? spanLogprob(reply.tokens, reply.text, parsed.textSpan) : { logprob: 0, count: 0 };
    const segment: GeneratedSegment = {
      text,
      tokenCount: seq.count,
      logprob: seq.logprob,
      done: next ? argmax(next) === 2 : reply.finish !== 'abort' && !parsed.missing.length,
      ...(rel ? { rel: { relevant: rel[0]!, irrelevant: rel[1]! } } : {}),
      ...(sup ? { sup: { full: sup[0]!, partial: sup[1]!, none: sup[2]! } } : {}),
      ...(use ? { use: use as UseProbs } : {}),
      ...(problems.length ? { problem: `Malformed model output: ${problems.join('; ')}.` } : {}),
    };
    if (next && text) this.remember(req.question, [...req.previous, text], { retrieval: next[0]!, noRetrieval: next[1]! });
    return segment;
  }

  private async segmentNative(req: SegmentRequest): Promise<GeneratedSegment> {
    const prompt = nativeSegmentPrompt(req.question, req.previous, req.passage);
    const reply = await this.complete(prompt, this.opts.maxSegmentTokens + 8, req.signal, [RETRIEVE.retrieval, RETRIEVE.noRetrieval, RETRIEVE.continueEvidence]);
    const problems: string[] = [];
    if (reply.finish === 'length') problems.push('the reply was cut off at the token limit');
    const group = (alts: readonly string[], name: string, required: boolean): number[] | undefined => {
      const hit = readNativeGroup(reply.tokens, alts);
      if (!hit && required) problems.push(`missing ${name} token`);
      return hit?.probs;
    };
    // The stop string that ended the reply is cut from the text but its token keeps its
    // log-probs: that is the model's retrieval decision for the next segment. The
    // released model writes [Utility:k] once, at the end of the whole answer, so a
    // middle segment ends at that decision with no utility token.
    const useAt = reply.tokens.findIndex((t) => (ISUSE as readonly string[]).includes(t.token));
    const decisions: string[] = [RETRIEVE.retrieval, RETRIEVE.noRetrieval, RETRIEVE.continueEvidence];
    const nextAt = reply.tokens.findIndex((t, i) => i > useAt && decisions.includes(t.token));
    const next = nextAt >= 0 ? readNativeGroup(reply.tokens.slice(nextAt), decisions) : null;
    // Relevance and support judge a passage: without one they are not read.
    const rel = req.passage ? group([ISREL.relevant, ISREL.irrelevant], 'relevance', true) : undefined;
    // No support token follows [Irrelevant], nor ends a middle segment.
    const irrelevant = !!rel && rel[1]! > rel[0]!;
    const sup = req.passage ? group([ISSUP.full, ISSUP.partial, ISSUP.none], 'support', !irrelevant && !next) : undefined;
    const use = group(ISUSE, 'utility', !next);
    // The segment is what the model wrote before its utility token, read from the message
    // (token strings lose SentencePiece spaces and split multi-byte characters).
    const segTokens = reply.tokens.slice(0, useAt >= 0 ? useAt : nextAt >= 0 ? nextAt : reply.tokens.length);
    const textTokens = segTokens.filter((t) => !isReflection(t.token) && !STOP_TOKENS.has(t.token));
    const text = nativeText(reply.text);
    if (!text) problems.push('no answer text');
    if (next && text) {
      const [retrieval, noRetrieval, continueEvidence] = next.probs as [number, number, number];
      this.remember(req.question, [...req.previous, text], { retrieval, noRetrieval, continueEvidence });
    }
    return {
      text,
      tokenCount: textTokens.length,
      logprob: textTokens.reduce((a, t) => a + t.logprob, 0),
      done: reply.finish === 'stop' && !next,
      ...(rel ? { rel: { relevant: rel[0]!, irrelevant: rel[1]! } } : {}),
      ...(sup ? { sup: { full: sup[0]!, partial: sup[1]!, none: sup[2]! } } : {}),
      ...(use ? { use: use as UseProbs } : {}),
      ...(problems.length ? { problem: `Malformed model output: ${problems.join('; ')}.` } : {}),
    };
  }

  private async decideNative(req: RetrievalDecisionRequest): Promise<RetrieveProbs> {
    const reply = await this.complete(nativeDecisionPrompt(req.question, req.previous), 1, req.signal);
    const first = reply.tokens[0];
    const p = (tok: string): number => {
      const hit = first?.top_logprobs.find((t) => t.token === tok);
      return hit ? Math.exp(hit.logprob) : 0;
    };
    const probs = { retrieval: p(RETRIEVE.retrieval), noRetrieval: p(RETRIEVE.noRetrieval), continueEvidence: p(RETRIEVE.continueEvidence) };
    if (probs.retrieval + probs.noRetrieval + probs.continueEvidence === 0) throw malformed('the retrieval decision (no retrieval token among the top 5)', reply.text);
    return probs;
  }

  /** One constrained chat decode; streams when the caller wants the text as it is written. */
  private async chat(system: string, user: string, form: Form, maxTokens: number, signal?: AbortSignal, onText?: (t: string) => void): Promise<Reply> {
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ];
    const base = {
      messages,
      max_tokens: maxTokens,
      logprobs: true,
      top_logprobs: TOP_LOGPROBS,
      response_format: { type: 'grammar' as const, grammar: formToGrammar(form) },
      ...samplingParams(this.opts),
      ...NEUTRAL_PENALTIES,
    };
    if (!onText) {
      const res = await this.guard(signal, () => this.engine.chatCompletion({ ...base, stream: false }));
      this.count(res.usage?.prompt_tokens, res.usage?.completion_tokens);
      const choice = res.choices[0];
      if (choice?.finish_reason === 'abort') throw abortError();
      return { text: choice?.message.content ?? '', tokens: (choice?.logprobs?.content ?? []) as TokenLogprob[], finish: choice?.finish_reason ?? null };
    }
    const request: ChatCompletionRequestStreaming = { ...base, stream: true, stream_options: { include_usage: true } };
    return this.guard(signal, async () => {
      const stream = await this.engine.chatCompletion(request);
      let text = '';
      let shown = '';
      const tokens: TokenLogprob[] = [];
      let finish: string | null = null;
      let usage: { prompt_tokens?: number; completion_tokens?: number } | undefined;
      for await (const chunk of stream) {
        const choice = chunk.choices[0];
        if (chunk.usage) usage = chunk.usage;
        if (!choice) continue;
        text += choice.delta.content ?? '';
        tokens.push(...((choice.logprobs?.content ?? []) as TokenLogprob[]));
        if (choice.finish_reason) finish = choice.finish_reason;
        const now = partialText(form, text);
        if (now !== shown) {
          shown = now;
          onText(now);
        }
      }
      this.count(usage?.prompt_tokens, usage?.completion_tokens ?? tokens.length);
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
        ...samplingParams(this.opts),
        ...NEUTRAL_PENALTIES,
      }),
    );
    this.count(res.usage?.prompt_tokens, res.usage?.completion_tokens);
    const choice = res.choices[0];
    if (choice?.finish_reason === 'abort') throw abortError();
    return { text: choice?.text ?? '', tokens: (choice?.logprobs?.content ?? []) as TokenLogprob[], finish: choice?.finish_reason ?? null };
  }

  /** Runs an engine call with abort wired to interruptGenerate and errors made readable. */
  private async guard<T>(signal: AbortSignal | undefined, run: () => Promise<T>): Promise<T> {
    throwIfAborted(signal);
    this.spent.calls += 1; // a call that fails still did work
    const stop = (): void => this.engine.interruptGenerate();
    signal?.addEventListener('abort', stop, { once: true });
    try {
      return await run();
    } catch (err) {
      if (signal?.aborted) throw abortError();
      throw classifyError(err);
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  }

  private count(prompt: number | undefined, decoded: number | undefined): void {
    this.spent.promptTokens += prompt ?? 0;
    this.spent.decodedTokens += decoded ?? 0;
  }

  private remember(question: string, previous: readonly string[], probs: RetrieveProbs): void {
    if (this.decided.size >= MAX_REMEMBERED_DECISIONS) this.decided.clear();
    this.decided.set(pathKey(question, previous), probs);
  }
}

/** The probabilities of a written slot's alternatives, every spelling of one alternative added up. */
function readFormSlot(form: Form, name: SlotName, reply: Reply, parsed: ReturnType<typeof parseForm>): number[] | null {
  const item = findSlot(form, name);
  const span = parsed.spans[name];
  if (!item || !span) return null;
  return readSlotBounded(reply.tokens, reply.text, span, slotSpellings(item), alignTokens(reply.tokens, reply.text))?.probs ?? null;
}

// Stop tokens get a log-prob entry of their own but are not part of the message.
const STOP_TOKENS = new Set(['</s>', '<|im_end|>', '<|endoftext|>', '<|eot_id|>', '<|end_of_text|>', '<|end|>']);

/** A native segment's text: the message before its utility token, without reflection tokens. */
function nativeText(message: string): string {
  const useAt = message.search(/\[Utility:[1-5]\]/);
  let text = useAt >= 0 ? message.slice(0, useAt) : message;
  for (const r of REFLECTION) text = text.split(r).join('');
  return text.replace(/<\/s>/g, '').trim();
}

function pathKey(question: string, previous: readonly string[]): string {
  return JSON.stringify([question, ...previous]);
}

function argmax(xs: readonly number[]): number {
  let best = 0;
  xs.forEach((x, i) => {
    if (x > xs[best]!) best = i;
  });
  return best;
}

const REFLECTION = new Set<string>([...Object.values(RETRIEVE), ...Object.values(ISREL), ...Object.values(ISSUP), ...ISUSE, '<paragraph>', '</paragraph>']);
function isReflection(token: string): boolean {
  return REFLECTION.has(token);
}

function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw abortError();
}

function malformed(what: string, reply: string): GeneratorError {
  return new GeneratorError(
    'malformed-output',
    `The model's reply for ${what} could not be read.`,
    'Retry, or choose another model; evidence-only mode does not need the model.',
    reply.slice(0, 300),
  );
}
