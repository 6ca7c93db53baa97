// What one engine supplies to the shared Self-RAG generator (./self-rag.ts): a few decode
// primitives over a loaded model. Engines differ in how a slot's probabilities are read
// (web-llm: token strings aligned to the message text; llama.cpp: token ids) and how a
// native model's reflection tokens are found, so those stay in the driver.
import type { RetrievalDecisionRequest, RetrieveProbs, SegmentRequest } from '../../core/ports';
import type { Form, ParsedForm, SlotName } from '../form';

/** Cost bookkeeping the shared generator owns; a driver reports each engine call and its tokens. */
export interface Meter {
  /** One engine call started (counted even if it fails: it did work). */
  call(): void;
  tokens(prompt: number | undefined, decoded: number | undefined): void;
}

/** A constrained reply; `tokens` are the engine's own, read back only by the same driver. */
export interface FormReply {
  text: string;
  finish: string | null;
}

/** A reply with the engine's own token records (log-probs and alternatives). */
export interface TokenReply<T> extends FormReply {
  tokens: T[];
}

/** What a native Self-RAG model wrote for one segment, its reflection tokens read. */
export interface NativeRead {
  text: string;
  tokenCount: number;
  logprob: number;
  done: boolean;
  rel?: number[];
  sup?: number[];
  use?: number[];
  /** The next segment's retrieval decision, [retrieval, noRetrieval, continueEvidence]. */
  next?: number[];
  problems: string[];
}

export interface TextRequest {
  system?: string;
  user: string;
  maxTokens: number;
  /** Constrain to one line of text. */
  oneLine?: boolean;
  signal?: AbortSignal;
  /** The reply so far, as it streams (engines that do not stream may never call it). */
  onText?: (textSoFar: string) => void;
}

export interface Decoder<R extends FormReply = FormReply> {
  /** Token budget of a form's labels and slot words beyond the segment itself. */
  readonly formOverhead: number;
  /** Token budget of the retrieval-decision form. */
  readonly decisionTokens: number;
  /** Rejects a bad temperature before it is used. */
  checkTemperature(temperature: number): void;
  setTemperature(temperature: number): void;
  /** One decode constrained to the form, streaming the segment text to `onText` as it is written. */
  chat(
    system: string,
    user: string,
    form: Form,
    maxTokens: number,
    signal?: AbortSignal,
    onText?: (t: string) => void,
  ): Promise<R>;
  /** A written slot's alternatives' probabilities, or null when they cannot be read. */
  readSlot(form: Form, name: SlotName, reply: R, parsed: ParsedForm): Promise<number[] | null>;
  /** The segment text's summed log-prob and token count. */
  textLogprob(form: Form, reply: R, parsed: ParsedForm): { logprob: number; count: number };
  nativeSegment(req: SegmentRequest, maxTokens: number): Promise<NativeRead>;
  nativeDecision(req: RetrievalDecisionRequest): Promise<RetrieveProbs>;
  /** Free text (optionally one line) with its token counts. */
  text(req: TextRequest): Promise<{ text: string; promptTokens: number; completionTokens: number }>;
  /** Stops every decode in flight; the model stays loaded. */
  interrupt(): void;
}
