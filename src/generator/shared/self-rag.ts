// The core's Generator and Writer ports over any engine's decoder (./decoder.ts), written
// once: the retrieval decision, segment generation, the critiques, the writer, one constrained
// completion and cost bookkeeping.
//
// A prompted candidate is a short conversation (../form.ts): the answer turn, written freely and
// stopped after one or two sentences (./answer-length.ts); utility asked of the same conversation;
// relevance and support, when the critique source wants them, asked of a judge. What the model
// wrote is checked before it is scored (./non-answer.ts). A native Self-RAG model writes its
// reflection tokens in one pass; every engine's are read by one rule (./native-read.ts).
import type {
  GeneratedSegment,
  Generator,
  GeneratorCost,
  Passage,
  RetrievalDecisionRequest,
  RetrieveProbs,
  SegmentRequest,
  UseProbs,
  Writer,
} from '../../core/ports';
import { abortError, GeneratorError } from '../errors';
import type { Withheld } from '../../core/types';
import { DECISION_REPLY, type Form, parseForm, REL_REPLY, SUP_REPLY, type SlotName, USE_REPLY } from '../form';
import type { CompleteRequest, CompleteResult } from '../handle';
import {
  answerMessages,
  type ChatMessage,
  decisionMessages,
  judgeMessages,
  relMessages,
  supMessages,
  useMessages,
} from '../prompts';
import { answerText, enoughSentences } from './answer-length';
import type { Decoder, FormReply, Meter } from './decoder';
import { type NativeRead, readNativeDecision, readNativeSegment } from './native-read';
import { earlierAnswer, nonAnswer, unread } from './non-answer';

export interface SelfRagOptions {
  /** Read reflection tokens directly (a native Self-RAG model) instead of prompting for them. */
  native: boolean;
  /** Token budget of one segment's text. */
  maxSegmentTokens: number;
  /**
   * Send a step's candidates to the engine together rather than one after another: llama.cpp
   * (wllama starts it with 4 slots and continuous batching) then decodes them as one batch.
   * Measured in docs/benchmarks-answer.md; web-llm serialises requests whatever is sent.
   */
  together?: boolean;
}

/** Remembered retrieval decisions are dropped past this many paths (one answer uses far fewer). */
export const MAX_REMEMBERED_DECISIONS = 512;
/** Extra tokens a native segment may spend on its reflection tokens. */
const NATIVE_OVERHEAD_TOKENS = 8;
/**
 * A one-word reply's budget: a model may spell "Partially" a few characters per token under the
 * grammar, and the grammar ends the reply as soon as the word is whole.
 */
const SLOT_TOKENS = 12;

export class SelfRagGenerator<R extends FormReply = FormReply> implements Generator, Writer {
  private spent: GeneratorCost = { promptTokens: 0, decodedTokens: 0, calls: 0 };
  /** Retrieval decisions already written at the end of a candidate, by path. */
  private readonly decided = new Map<string, RetrieveProbs>();
  protected readonly decoder: Decoder<R>;

  constructor(
    makeDecoder: (meter: Meter) => Decoder<R>,
    private readonly opts: SelfRagOptions,
  ) {
    this.decoder = makeDecoder({
      call: () => void (this.spent.calls += 1),
      tokens: (p, d) => {
        this.spent.promptTokens += p ?? 0;
        this.spent.decodedTokens += d ?? 0;
      },
    });
  }

  /** A native Self-RAG model reads its own reflection tokens; a prompted one is asked for them. */
  get native(): boolean {
    return this.opts.native;
  }

  /** Applies from the next call: the loaded model stays, only sampling changes. */
  setTemperature(temperature: number): void {
    this.decoder.checkTemperature(temperature);
    this.decoder.setTemperature(temperature);
    // Remembered decisions were sampled under the old temperature.
    this.decided.clear();
  }

  interrupt(): void {
    this.decoder.interrupt();
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
    if (this.opts.native) {
      const { first, text } = await this.decoder.nativeDecision(req);
      const probs = readNativeDecision(first);
      if (!probs)
        throw malformed('the retrieval decision (no retrieval token among the tokens the engine reported)', text);
      return probs;
    }
    const probs = await this.slot(decisionMessages(req.question, req.previous), DECISION_REPLY, 'decision', req.signal);
    if (!probs) throw malformed('the retrieval decision', '');
    return { retrieval: probs[0]!, noRetrieval: probs[1]! };
  }

  async generateSegments(reqs: SegmentRequest[]): Promise<GeneratedSegment[]> {
    const one = (req: SegmentRequest) => (this.opts.native ? this.segmentNative(req) : this.segmentPrompted(req));
    if (this.opts.together && reqs.length > 1) {
      reqs.forEach((r) => throwIfAborted(r.signal));
      try {
        return await Promise.all(reqs.map(one));
      } catch (e) {
        this.decoder.interrupt(); // the batch's other candidates would only be thrown away
        throw e;
      }
    }
    const out: GeneratedSegment[] = [];
    // One at a time, in order: an abort stops the batch, and llama.cpp's prompt cache reuses the
    // prefix the previous candidate left.
    for (const req of reqs) {
      throwIfAborted(req.signal);
      out.push(await one(req));
    }
    return out;
  }

  async judgePassages(question: string, passages: Passage[], signal?: AbortSignal): Promise<number[]> {
    if (this.opts.native)
      throw new GeneratorError(
        'bad-config',
        'A native Self-RAG model is not asked to judge passages.',
        'Re-rank with the cross-encoder instead.',
      );
    const one = async (p: Passage) => {
      throwIfAborted(signal);
      const probs = await this.slot(judgeMessages(question, p), REL_REPLY, 'rel', signal);
      // A reply the form could not read says nothing either way: the first stage's order decides.
      if (!probs) return 0.5;
      const [yes, no] = probs as [number, number];
      return yes + no > 0 ? yes / (yes + no) : 0.5;
    };
    // Together where the engine batches (llama.cpp's slots), else in order so an abort stops it.
    if (this.opts.together) return Promise.all(passages.map(one));
    const out: number[] = [];
    for (const p of passages) out.push(await one(p));
    return out;
  }

  async write(
    instruction: string,
    opts: { maxTokens?: number; signal?: AbortSignal; onText?: (textSoFar: string) => void } = {},
  ): Promise<string> {
    throwIfAborted(opts.signal);
    const reply = await this.decoder.text({
      user: instruction,
      maxTokens: opts.maxTokens ?? 256,
      ...(opts.signal ? { signal: opts.signal } : {}),
      ...(opts.onText ? { onText: opts.onText } : {}),
    });
    return reply.text.trim();
  }

  /** One short constrained completion (e.g. a follow-up rewritten into a standalone query). */
  async complete(req: CompleteRequest): Promise<CompleteResult> {
    throwIfAborted(req.signal);
    if (!(req.maxTokens >= 1) || !Number.isInteger(req.maxTokens))
      throw new RangeError(`maxTokens must be a whole number of at least 1, got ${req.maxTokens}.`);
    const reply = await this.decoder.text({
      user: req.prompt,
      maxTokens: req.maxTokens,
      ...(req.system !== undefined ? { system: req.system } : {}),
      ...(req.oneLine ? { oneLine: true } : {}),
      ...(req.signal ? { signal: req.signal } : {}),
    });
    const text = req.oneLine ? (reply.text.split('\n')[0] ?? '') : reply.text;
    return { text: text.trim(), promptTokens: reply.promptTokens, completionTokens: reply.completionTokens };
  }

  private async segmentPrompted(req: SegmentRequest): Promise<GeneratedSegment> {
    const messages = answerMessages(req.question, req.previous, req.passage);
    const reply = await this.decoder.chat({
      messages,
      maxTokens: this.opts.maxSegmentTokens,
      enough: (t) => enoughSentences(t),
      ...(req.signal ? { signal: req.signal } : {}),
      ...(req.onText ? { onText: req.onText } : {}),
    });
    const ended = reply.finish === 'stop';
    const text = answerText(reply.text, ended);
    const seq = text
      ? this.decoder.textLogprob(reply, reply.text.indexOf(text) + text.length)
      : { logprob: 0, count: 0 };
    const base = { text, tokenCount: seq.count, logprob: seq.logprob };
    const withheld = nonAnswer({
      text,
      raw: reply.text,
      previous: req.previous,
      ...(req.earlier ? { earlier: req.earlier } : {}),
      ...(req.passage ? { passage: req.passage.text } : {}),
    });
    // Not an answer: no critique is worth asking (it would only grade what the page will not show).
    if (withheld) return { ...base, done: true, withheld };

    const problems: string[] = [];
    let missing: Withheld | undefined;
    const read = async (what: string, msgs: ChatMessage[], form: Form, name: SlotName) => {
      const probs = await this.slot(msgs, form, name, req.signal);
      if (!probs) {
        problems.push(`no probabilities for the ${what}`);
        missing ??= unread(what);
      }
      return probs ?? undefined;
    };
    const use = await read('utility', useMessages(messages, text), USE_REPLY, 'use');
    let rel: number[] | undefined;
    let sup: number[] | undefined;
    if (req.passage) {
      const wanted = req.critiques ?? { rel: true, sup: true };
      if (wanted.rel) rel = await read('relevance', relMessages(req.question, req.passage), REL_REPLY, 'rel');
      if (wanted.sup) {
        const relWord = rel ? (rel[0]! >= rel[1]! ? 'Yes' : 'No') : undefined;
        sup = await read('support', supMessages(req.question, req.passage, text, relWord), SUP_REPLY, 'sup');
      }
    }
    return segment({
      ...base,
      // The model ended the answer itself; stopped after its sentences, it had more to say.
      done: ended,
      ...(rel ? { rel } : {}),
      ...(sup ? { sup } : {}),
      ...(use ? { use } : {}),
      problems,
      ...(missing ? { withheld: missing } : {}),
    });
  }

  /** One critique turn: a one-word reply held to the form, its alternatives' probabilities read. */
  private async slot(
    messages: ChatMessage[],
    form: Form,
    name: SlotName,
    signal?: AbortSignal,
  ): Promise<number[] | null> {
    let reply: R;
    try {
      reply = await this.decoder.chat({ messages, form, maxTokens: SLOT_TOKENS, ...(signal ? { signal } : {}) });
    } catch (e) {
      // A critique the engine could not hand back (bytes that are not text) is unread, as a reply
      // off the form is: that candidate is withheld, the others and the answer go on.
      if (e instanceof GeneratorError && e.kind === 'malformed-output' && !signal?.aborted) return null;
      throw e;
    }
    if (!parseForm(form, reply.text).spans[name]) return null;
    return this.decoder.readSlot(form, name, reply);
  }

  private async segmentNative(req: SegmentRequest): Promise<GeneratedSegment> {
    const reply = await this.decoder.nativeSegment(req, this.opts.maxSegmentTokens + NATIVE_OVERHEAD_TOKENS);
    const read = readNativeSegment(reply, !!req.passage);
    // A native model's segment is read as written, but a copy of an earlier turn's answer is not an answer.
    const repeated = read.text ? earlierAnswer(read.text, req.earlier) : undefined;
    if (repeated) return segment({ ...read, done: true, withheld: repeated });
    if (read.next && read.text) {
      const [retrieval, noRetrieval, continueEvidence] = read.next as [number, number, number];
      this.remember(req.question, [...req.previous, read.text], { retrieval, noRetrieval, continueEvidence });
    }
    return segment(read);
  }

  private remember(question: string, previous: readonly string[], probs: RetrieveProbs): void {
    if (this.decided.size >= MAX_REMEMBERED_DECISIONS) this.decided.clear();
    this.decided.set(pathKey(question, previous), probs);
  }
}

function segment(r: Omit<NativeRead, 'next'> & { withheld?: Withheld }): GeneratedSegment {
  const { rel, sup, use } = r;
  return {
    text: r.text,
    tokenCount: r.tokenCount,
    logprob: r.logprob,
    done: r.done,
    ...(rel ? { rel: { relevant: rel[0]!, irrelevant: rel[1]! } } : {}),
    ...(sup ? { sup: { full: sup[0]!, partial: sup[1]!, none: sup[2]! } } : {}),
    ...(use ? { use: use as UseProbs } : {}),
    ...(r.problems.length ? { problem: `Malformed model output: ${r.problems.join('; ')}.` } : {}),
    ...(r.withheld ? { withheld: r.withheld } : {}),
  };
}

function pathKey(question: string, previous: readonly string[]): string {
  return JSON.stringify([question, ...previous]);
}

export function throwIfAborted(signal?: AbortSignal): void {
  if (signal?.aborted) throw abortError();
}

export function malformed(what: string, reply: string): GeneratorError {
  return new GeneratorError(
    'malformed-output',
    `The model's reply for ${what} could not be read.`,
    'Retry, or choose another model; evidence-only mode does not need the model.',
    reply.slice(0, 300),
  );
}
