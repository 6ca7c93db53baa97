/**
 * ScriptedGenerator — a Generator port double that follows a script and records every call.
 *
 * Script keys name a point in the answer: `scriptKey(previous, passageId)`, where `previous` is
 * the list of segment texts already chosen on the path ([] for the first segment) and
 * `passageId` the passage a candidate is written from (null: written without one).
 *
 *   const gen = new ScriptedGenerator({
 *     retrieve: { [pathKey([])]: { retrieval: 0.9, noRetrieval: 0.1 } },   // or a function of the request
 *     segments: {
 *       [scriptKey([], 'p1')]: { text: 'Paris.', rel: REL, sup: SUP, use: USE, done: true },
 *       [scriptKey([], null)]: { text: 'I think Paris.', use: USE, done: true },
 *     },                                                                     // or a function of the request
 *   });
 *
 * - `gen.calls`: every call in order: { kind: 'decideRetrieval', previous } or
 *   { kind: 'generateSegments', requests: [{ previous, passageId }] }. Counting helpers:
 *   `decideCalls`, `generateCalls`, `segmentsGenerated`.
 * - `gen.onCall(fn)`: run `fn(call)` as each call starts (e.g. abort a controller mid-decode).
 * - A missing script entry throws, naming the key, so a test cannot silently go off-script.
 * - `tokenCount` defaults to the text's word count, `done` to false; `onText` is called once
 *   with the full text. An already-aborted signal rejects with an AbortError, like a real port.
 */
import { formatSelfRagPrompt } from '../../src/core/reflection-tokens';
import type {
  GeneratedSegment,
  Generator,
  GeneratorCost,
  RetrievalDecisionRequest,
  RetrieveProbs,
  SegmentRequest,
} from '../../src/core/ports';

export type ScriptedSegment = Partial<GeneratedSegment> & { text: string };

export interface GeneratorScript {
  retrieve?: Record<string, RetrieveProbs> | ((req: RetrievalDecisionRequest) => RetrieveProbs);
  segments: Record<string, ScriptedSegment> | ((req: SegmentRequest) => ScriptedSegment);
}

export type GeneratorCall =
  | { kind: 'decideRetrieval'; previous: string[] }
  | { kind: 'generateSegments'; requests: { previous: string[]; passageId: string | null }[] };

export const pathKey = (previous: readonly string[]): string => previous.join(' ▸ ');
export const scriptKey = (previous: readonly string[], passageId: string | null): string =>
  `${pathKey(previous)} @ ${passageId ?? 'no passage'}`;

const words = (s: string): number => s.split(/\s+/).filter(Boolean).length;

function abortError(): Error {
  const e = new Error('The operation was aborted.');
  e.name = 'AbortError';
  return e;
}

export class ScriptedGenerator implements Generator {
  readonly calls: GeneratorCall[] = [];
  /** Every segment request as the core sent it (critiques asked for, signals, callbacks). */
  readonly requests: SegmentRequest[] = [];
  private listeners: ((call: GeneratorCall) => void)[] = [];
  private spent: GeneratorCost = { promptTokens: 0, decodedTokens: 0, calls: 0 };

  constructor(private readonly script: GeneratorScript) {}

  onCall(fn: (call: GeneratorCall) => void): this {
    this.listeners.push(fn);
    return this;
  }

  get decideCalls(): number {
    return this.calls.filter((c) => c.kind === 'decideRetrieval').length;
  }
  get generateCalls(): number {
    return this.calls.filter((c) => c.kind === 'generateSegments').length;
  }
  get segmentsGenerated(): number {
    return this.calls.reduce((n, c) => n + (c.kind === 'generateSegments' ? c.requests.length : 0), 0);
  }

  private record(call: GeneratorCall): void {
    this.calls.push(call);
    this.spent.calls += 1;
    for (const l of this.listeners) l(call);
  }

  async decideRetrieval(req: RetrievalDecisionRequest): Promise<RetrieveProbs> {
    this.record({ kind: 'decideRetrieval', previous: [...req.previous] });
    if (req.signal?.aborted) throw abortError();
    const { retrieve } = this.script;
    if (typeof retrieve === 'function') return retrieve(req);
    const probs = retrieve?.[pathKey(req.previous)];
    if (!probs)
      throw new Error(`ScriptedGenerator: no retrieval decision scripted for path "${pathKey(req.previous)}".`);
    return probs;
  }

  async generateSegments(reqs: SegmentRequest[]): Promise<GeneratedSegment[]> {
    this.record({
      kind: 'generateSegments',
      requests: reqs.map((r) => ({ previous: [...r.previous], passageId: r.passage?.id ?? null })),
    });
    this.requests.push(...reqs);
    if (reqs.some((r) => r.signal?.aborted)) throw abortError();
    return reqs.map((req) => {
      const { segments } = this.script;
      const key = scriptKey(req.previous, req.passage?.id ?? null);
      const s = typeof segments === 'function' ? segments(req) : segments[key];
      if (!s) throw new Error(`ScriptedGenerator: no segment scripted for "${key}".`);
      req.onText?.(s.text);
      const out: GeneratedSegment = { ...s, tokenCount: s.tokenCount ?? words(s.text), done: s.done ?? false };
      this.spent.promptTokens += words(formatSelfRagPrompt(req.question, req.passage, req.previous.join(' ')));
      this.spent.decodedTokens += out.tokenCount;
      return out;
    });
  }

  cost(): GeneratorCost {
    return { ...this.spent };
  }
}
