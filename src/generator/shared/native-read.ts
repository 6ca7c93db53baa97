// A native Self-RAG model's reflection tokens, read by one rule for every engine. The drivers
// only map their wire format (web-llm: token strings and top-5 log-probs; llama.cpp: token ids
// and top-n log-probs) onto NativeToken; which group follows which is decided here, once.
//
// The rule is the paper's (§3.1 and §3.2.2, the order of the generator's training data):
//   [Retrieval]<paragraph>…</paragraph> [Relevant|Irrelevant] segment [support] … [Utility:k]
// - relevance follows a passage, so it is read only when the segment was given one;
// - support follows the segment when the passage was judged relevant ("if a passage is relevant,
//   C further evaluates whether the passage supports the model generation"), so after a written
//   [Irrelevant] it is not expected;
// - utility is predicted once, "at the end of the output": a middle segment ends at the next
//   retrieval decision instead, and only a segment with no decision after it must carry one.
// A group the model wrote where it was not expected is still read, as the reference scripts read
// the first support or utility token wherever it appears; an expected group that is missing is
// reported, and the core leaves it out of the score.
import { ISREL, ISSUP, ISUSE, RETRIEVE } from '../../core/reflection-tokens';

/** One generated token, in the one shape every engine driver returns. */
export interface NativeToken {
  /** The token's text as the engine decoded it (not always a slice of the message). */
  text: string;
  logprob: number;
  /** The reflection token written here (its exact string); absent for answer text. */
  reflection?: string;
  /** An end-of-text token: neither answer text nor a reflection. */
  end?: boolean;
  /** Log-probs of the reflection tokens the engine reported at this position, the written one included. */
  alternatives: Readonly<Record<string, number>>;
}

/**
 * What a native model wrote for one segment. `text` is the message before the stop; `tokens`
 * end with the next retrieval decision when the model wrote one (a driver whose engine drops a
 * stop word's log-probs reads that position again and appends it).
 */
export interface NativeReply {
  text: string;
  tokens: readonly NativeToken[];
  finish: string | null;
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

const REL: readonly string[] = [ISREL.relevant, ISREL.irrelevant];
const SUP: readonly string[] = [ISSUP.full, ISSUP.partial, ISSUP.none];
const USE: readonly string[] = ISUSE;
const DECISION: readonly string[] = [RETRIEVE.retrieval, RETRIEVE.noRetrieval, RETRIEVE.continueEvidence];

/** Every reflection token and the passage markers: what a segment's text is stripped of. */
export const REFLECTION_STRINGS: readonly string[] = [
  ...DECISION,
  ...REL,
  ...SUP,
  ...USE,
  '<paragraph>',
  '</paragraph>',
];

/** The stop strings of a native segment: it ends where the model decides about the next one. */
export const NATIVE_STOPS: readonly string[] = DECISION;

/** Reads one segment by the paper's rule (see the top of this file). */
export function readNativeSegment(reply: NativeReply, hasPassage: boolean): NativeRead {
  const problems: string[] = [];
  if (reply.finish === 'length') problems.push('the reply was cut off at the token limit');
  const decisionAt = reply.tokens.findIndex((t) => isIn(t, DECISION));
  const segment = decisionAt >= 0 ? reply.tokens.slice(0, decisionAt) : reply.tokens;
  const read = (group: readonly string[], what: string, expected: boolean): number[] | undefined => {
    const at = segment.find((t) => isIn(t, group));
    const probs = at && groupProbs(at, group);
    if (!probs && expected) problems.push(`missing ${what} token`);
    return probs ?? undefined;
  };
  // Relevance and support judge a passage: without one they are not read.
  const relAt = hasPassage ? segment.find((t) => isIn(t, REL)) : undefined;
  const rel = hasPassage ? read(REL, 'relevance', true) : undefined;
  const sup = hasPassage ? read(SUP, 'support', relAt?.reflection !== ISREL.irrelevant) : undefined;
  const use = read(USE, 'utility', decisionAt < 0);
  const next = decisionAt >= 0 ? (groupProbs(reply.tokens[decisionAt]!, DECISION) ?? undefined) : undefined;
  // The answer is what the model wrote before its utility token (or its next decision).
  const useAt = segment.findIndex((t) => isIn(t, USE));
  const textTokens = (useAt >= 0 ? segment.slice(0, useAt) : segment).filter((t) => !t.reflection && !t.end);
  const text = nativeText(reply.text);
  if (!text) problems.push('no answer text');
  return {
    text,
    tokenCount: textTokens.length,
    logprob: textTokens.reduce((a, t) => a + t.logprob, 0),
    done: reply.finish === 'stop' && decisionAt < 0,
    ...(rel ? { rel } : {}),
    ...(sup ? { sup } : {}),
    ...(use ? { use } : {}),
    ...(next ? { next } : {}),
    problems,
  };
}

/**
 * The first retrieval decision's raw probabilities at the token the model wrote first (the core
 * normalises the group), or null when none of the three was reported there.
 */
export function readNativeDecision(
  first: NativeToken | undefined,
): { retrieval: number; noRetrieval: number; continueEvidence: number } | null {
  const p = (tok: string): number => {
    const lp = first?.alternatives[tok];
    return lp === undefined ? 0 : Math.exp(lp);
  };
  const probs = {
    retrieval: p(RETRIEVE.retrieval),
    noRetrieval: p(RETRIEVE.noRetrieval),
    continueEvidence: p(RETRIEVE.continueEvidence),
  };
  return probs.retrieval + probs.noRetrieval + probs.continueEvidence > 0 ? probs : null;
}

function isIn(t: NativeToken, group: readonly string[]): boolean {
  return t.reflection !== undefined && group.includes(t.reflection);
}

/**
 * The group's probabilities where it was written, normalised over the group; a token the engine
 * did not report counts as 0. Null when none was reported (nothing was measured).
 */
function groupProbs(at: NativeToken, group: readonly string[]): number[] | null {
  const probs = group.map((g) => {
    const lp = at.alternatives[g];
    return lp === undefined ? 0 : Math.exp(lp);
  });
  const sum = probs.reduce((a, b) => a + b, 0);
  return sum > 0 ? probs.map((p) => p / sum) : null;
}

/**
 * A segment's text: the message before its utility token, without reflection tokens, read from
 * the message (token strings lose SentencePiece spaces and split multi-byte characters).
 */
function nativeText(message: string): string {
  const useAt = message.search(/\[Utility:[1-5]\]/);
  let text = useAt >= 0 ? message.slice(0, useAt) : message;
  for (const r of REFLECTION_STRINGS) text = text.split(r).join('');
  return text.replace(/<\/s>/g, '').trim();
}
