// What one engine supplies to the shared Self-RAG generator (./self-rag.ts): a few decode
// primitives over a loaded model. Engines differ in how a slot's probabilities are read
// (web-llm: token strings aligned to the message text; llama.cpp: token ids), so that stays in
// the driver; a native model's tokens come back in one shape and are read by ./native-read.ts.
import type { RetrievalDecisionRequest, SegmentRequest } from '../../core/ports';
import type { Form, SlotName } from '../form';
import type { ChatMessage } from '../prompts';
import type { NativeReply, NativeToken } from './native-read';

/** Cost bookkeeping the shared generator owns; a driver reports each engine call and its tokens. */
export interface Meter {
  /** One engine call started (counted even if it fails: it did work). */
  call(): void;
  tokens(prompt: number | undefined, decoded: number | undefined): void;
}

/**
 * A reply; `tokens` are the engine's own, read back only by the same driver. `finish` is the
 * engine's ('stop': the model ended it, 'length': the token limit) or 'enough': the request's
 * `enough` rule stopped it.
 */
export interface FormReply {
  text: string;
  finish: string | null;
}

/** One chat turn: the messages so far, and the reply held to `form` when one is given. */
export interface ChatRequest {
  messages: readonly ChatMessage[];
  /** The grammar the reply must follow; absent: free text, as the model writes it. */
  form?: Form;
  maxTokens: number;
  signal?: AbortSignal;
  /** The reply so far, as it streams. */
  onText?: (textSoFar: string) => void;
  /** Stops the reply once the text so far is enough (it then ends with finish 'enough'). */
  enough?: (textSoFar: string) => boolean;
}

/** A reply with the engine's own token records (log-probs and alternatives). */
export interface TokenReply<T> extends FormReply {
  tokens: T[];
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
  /** Rejects a bad temperature before it is used. */
  checkTemperature(temperature: number): void;
  setTemperature(temperature: number): void;
  /** One chat turn with log-probs, streaming its text to `onText` as it is written. */
  chat(req: ChatRequest): Promise<R>;
  /** A written slot's alternatives' probabilities, or null when they cannot be read. */
  readSlot(form: Form, name: SlotName, reply: R): Promise<number[] | null>;
  /** The summed log-prob and count of the reply's tokens that fall within its first `chars` characters. */
  textLogprob(reply: R, chars: number): { logprob: number; count: number };
  /** A native model's segment in the released prompt format, ending at its next retrieval decision. */
  nativeSegment(req: SegmentRequest, maxTokens: number): Promise<NativeReply>;
  /** The first token a native model writes where it decides whether to retrieve. */
  nativeDecision(req: RetrievalDecisionRequest): Promise<{ first: NativeToken | undefined; text: string }>;
  /** Free text (optionally one line) with its token counts. */
  text(req: TextRequest): Promise<{ text: string; promptTokens: number; completionTokens: number }>;
  /** Stops every decode in flight; the model stays loaded. */
  interrupt(): void;
}
