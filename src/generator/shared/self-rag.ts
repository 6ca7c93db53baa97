// The core's Generator and Writer ports over any engine's decoder (./decoder.ts), written
// once: the retrieval decision (remembered per path when a segment already wrote it),
// segment generation, the prompted form's slots, the writer, one constrained completion
// and cost bookkeeping. Each prompted candidate is one decode: relevance, the segment,
// support, utility and the next step's retrieval decision come from the same pass.
import type {
  GeneratedSegment,
  Generator,
  GeneratorCost,
  RetrievalDecisionRequest,
  RetrieveProbs,
  SegmentRequest,
  UseProbs,
  Writer,
} from '../../core/ports';
import { abortError, GeneratorError } from '../errors';
import { parseForm, RETRIEVAL_DECISION, SEGMENT_WITH_PASSAGE, SEGMENT_WITHOUT_PASSAGE, type SlotName } from '../form';
import type { CompleteRequest, CompleteResult } from '../handle';
import {
  decisionUserMessage,
  segmentUserMessage,
  SYSTEM_DECISION,
  SYSTEM_WITH_PASSAGE,
  SYSTEM_WITHOUT_PASSAGE,
} from '../prompts';
import type { Decoder, FormReply, Meter, NativeRead } from './decoder';

export interface SelfRagOptions {
  /** Read reflection tokens directly (a native Self-RAG model) instead of prompting for them. */
  native: boolean;
  /** Token budget of one segment's text. */
  maxSegmentTokens: number;
}

/** Remembered retrieval decisions are dropped past this many paths (one answer uses far fewer). */
export const MAX_REMEMBERED_DECISIONS = 512;
/** Extra tokens a native segment may spend on its reflection tokens. */
const NATIVE_OVERHEAD_TOKENS = 8;

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
    if (this.opts.native) return this.decoder.nativeDecision(req);
    const reply = await this.decoder.chat(
      SYSTEM_DECISION,
      decisionUserMessage(req.question, req.previous),
      RETRIEVAL_DECISION,
      this.decoder.decisionTokens,
      req.signal,
    );
    const parsed = parseForm(RETRIEVAL_DECISION, reply.text);
    const probs = parsed.spans.decision
      ? await this.decoder.readSlot(RETRIEVAL_DECISION, 'decision', reply, parsed)
      : null;
    if (!probs) throw malformed('the retrieval decision', reply.text);
    return { retrieval: probs[0]!, noRetrieval: probs[1]! };
  }

  async generateSegments(reqs: SegmentRequest[]): Promise<GeneratedSegment[]> {
    const out: GeneratedSegment[] = [];
    // One at a time, in order: engines serialise requests anyway, an abort stops the batch,
    // and llama.cpp's prompt cache reuses the prefix the previous candidate left.
    for (const req of reqs) {
      throwIfAborted(req.signal);
      out.push(this.opts.native ? await this.segmentNative(req) : await this.segmentPrompted(req));
    }
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
    const form = req.passage ? SEGMENT_WITH_PASSAGE : SEGMENT_WITHOUT_PASSAGE;
    const system = req.passage ? SYSTEM_WITH_PASSAGE : SYSTEM_WITHOUT_PASSAGE;
    const reply = await this.decoder.chat(
      system,
      segmentUserMessage(req.question, req.previous, req.passage),
      form,
      this.opts.maxSegmentTokens + this.decoder.formOverhead,
      req.signal,
      req.onText,
    );
    const parsed = parseForm(form, reply.text);
    const problems: string[] = [];
    // An engine may report 'length' when the last token lands exactly on max_tokens, even
    // if that token completed the form; only an incomplete form was cut off.
    if (reply.finish === 'length' && parsed.missing.length) problems.push('the reply was cut off at the token limit');
    if (parsed.missing.length) problems.push(`missing ${parsed.missing.join(', ')}`);
    const slot = async (name: SlotName): Promise<number[] | undefined> => {
      if (!parsed.spans[name]) return undefined;
      const probs = await this.decoder.readSlot(form, name, reply, parsed);
      if (!probs) problems.push(`no probabilities for the ${name} slot`);
      return probs ?? undefined;
    };
    const rel = req.passage ? await slot('rel') : undefined;
    const sup = req.passage ? await slot('sup') : undefined;
    const use = await slot('use');
    const next = await slot('next');
    const text = (parsed.text ?? '').trim();
    const seq = parsed.textSpan ? this.decoder.textLogprob(form, reply, parsed) : { logprob: 0, count: 0 };
    if (next && text)
      this.remember(req.question, [...req.previous, text], { retrieval: next[0]!, noRetrieval: next[1]! });
    return segment({
      text,
      tokenCount: seq.count,
      logprob: seq.logprob,
      done: next ? argmax(next) === 2 : reply.finish !== 'abort' && !parsed.missing.length,
      ...(rel ? { rel } : {}),
      ...(sup ? { sup } : {}),
      ...(use ? { use } : {}),
      problems,
    });
  }

  private async segmentNative(req: SegmentRequest): Promise<GeneratedSegment> {
    const read = await this.decoder.nativeSegment(req, this.opts.maxSegmentTokens + NATIVE_OVERHEAD_TOKENS);
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

function segment(r: Omit<NativeRead, 'next'>): GeneratedSegment {
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
  };
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
