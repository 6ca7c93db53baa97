// Rewriting a follow-up into a standalone search query, as LangChain's history-aware
// retriever and LlamaIndex's condense-question engine do: the model sees the recent turns
// and the new question and must return only the question, made self-contained, without
// answering it. Small models still wander, so the output is cleaned and checked, and the
// original question is used whenever the rewrite is not usable.
import { formatHistoryTurn, type HistoryTurn } from './history';

export const REWRITE_SYSTEM =
  'You rewrite follow-up questions. Given a conversation and a follow-up question, formulate a standalone question ' +
  'that can be understood without the conversation. Replace pronouns such as "it", "they", "them" or "that" with ' +
  'what they refer to. Do NOT answer the question. Reply with the standalone question only, on one line.';

/** Tokens the rewrite may produce: one question. */
export const REWRITE_MAX_TOKENS = 48;

export interface RewritePrompt {
  system: string;
  prompt: string;
  maxTokens: number;
  oneLine: true;
}

/** The rewrite request, or null for a first question (no call is made then). */
export function rewritePrompt(history: readonly HistoryTurn[], question: string): RewritePrompt | null {
  if (history.length === 0) return null;
  const convo = history.map(formatHistoryTurn).join('\n');
  const prompt = `Conversation:\n${convo}\n\nFollow-up question: ${question.trim()}\nStandalone question:`;
  return { system: REWRITE_SYSTEM, prompt, maxTokens: REWRITE_MAX_TOKENS, oneLine: true };
}

const LABEL =
  /^(?:standalone(?:\s+question)?|rewritten(?:\s+question)?|follow-?up(?:\s+question)?|question|query|search query)\s*[:\-–]\s*/i;
const MAX_REWRITE_CHARS = 300;

export interface CleanedRewrite {
  query: string;
  /** False when the model's output was unusable and the original question is used. */
  usedRewrite: boolean;
  /** Why the output was not used. */
  reason?: string;
}

/**
 * The first usable line of the model's output, without labels or quotes; the original when none is
 * usable. `earlier`: the thread's earlier questions, which a rewrite must not merely restate.
 */
export function cleanRewrite(output: string, original: string, earlier: readonly string[] = []): CleanedRewrite {
  const fallback = (reason: string): CleanedRewrite => ({ query: original.trim(), usedRewrite: false, reason });
  const line = output
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.length > 0);
  if (!line) return fallback('the rewrite was empty');
  let q = line.replace(LABEL, '').trim();
  q = q.replace(/^["'“‘`]+|["'”’`]+$/g, '').trim();
  q = q.replace(/\s+/g, ' ');
  if (q.length < 3 || !/[\p{L}\p{N}]/u.test(q)) return fallback('the rewrite had no words');
  if (q.length > MAX_REWRITE_CHARS) return fallback('the rewrite was too long to be a question');
  // An answer rather than a question: a statement longer than a keyword query that does not ask anything.
  const asks =
    /\?\s*$/.test(q) ||
    /^(who|what|when|where|why|how|which|is|are|do|does|did|can|could|should|was|were|will|would)\b/i.test(q);
  if (!asks && q.split(' ').length > MAX_KEYWORD_WORDS) return fallback('the model answered instead of rewriting');
  // A small model often hands the follow-up back ("and what about -R?"), or only swaps "it" for "this":
  // searched alone it finds whatever shares its few words, so it is no better than no rewrite.
  if (newWords(q, original).length === 0) return fallback('the rewrite added nothing to the follow-up');
  // The other way a small model wanders: it restates the earlier question and drops what the user
  // asked now (Qwen2.5-Coder-0.5B rewrote "And when the value is too big?" as the first question
  // word for word: 10 of its 16 otherwise usable rewrites of the labelled follow-ups did so,
  // docs/benchmarks-answer.md). Searched and answered, it answers the earlier question again.
  const same = (a: string) =>
    a
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
  if (earlier.some((e) => same(e) === same(q))) return fallback('the rewrite only restated the earlier question');
  if (!keepsFollowUp(q, original, earlier)) return fallback("the rewrite dropped the follow-up's own words");
  return { query: q, usedRewrite: true };
}

/**
 * Whether a rewrite keeps at least one content word of the follow-up that the earlier questions do
 * not already have (a follow-up with none, "Why?", is kept by any). A word counts as kept where the
 * rewrite has one with the same first four letters ("slower" / "slow", "systems" / "system").
 */
export function keepsFollowUp(rewrite: string, followUp: string, earlier: readonly string[] = []): boolean {
  const stem = (w: string) => w.slice(0, 4);
  const before = new Set(earlier.flatMap(contentWords).map(stem));
  const own = contentWords(followUp).filter((w) => !before.has(stem(w)));
  if (own.length === 0) return true;
  const theirs = new Set(contentWords(rewrite).map(stem));
  return own.some((w) => theirs.has(stem(w)));
}

const contentWords = (s: string): string[] =>
  (s.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}_.+#-]*/gu) ?? []).filter(
    (w) => !FILLER.has(w) && !FILLER.has(w.replace(/s$/, '')),
  );

/** Words that carry no subject: a rewrite that adds only these to the follow-up is the follow-up unchanged. */
const FILLER = new Set(
  (
    'a an the this that these those it its they them their there he she him her his we us our you your i me my ' +
    'and or but so then also about of in on at to for with from by as what which who whom whose when where why how ' +
    'is are was were be been being do does did can could should would will shall may might must have has had ' +
    'not no yes more else other another same one ones thing things stuff please tell me explain much many'
  ).split(' '),
);

/** The content words of `rewrite` (lower case) that the follow-up did not already have. */
export function newWords(rewrite: string, followUp: string): string[] {
  const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}_.+#-]*/gu) ?? [];
  const had = new Set(words(followUp));
  return [...new Set(words(rewrite))].filter((w) => !had.has(w) && !FILLER.has(w) && !FILLER.has(w.replace(/s$/, '')));
}

/** A rewrite that does not ask may still be a keyword query ("bees honey ripening time"), up to this many words. */
const MAX_KEYWORD_WORDS = 8;

/**
 * Evidence-only mode has no generator to rewrite with: the follow-up is searched together
 * with the earlier questions (newest first, so the lexical index weighs them equally but
 * a cut-off keeps the recent ones).
 */
export function joinedQuery(earlierQuestions: readonly string[], followUp: string, maxEarlier = 3): string {
  const earlier = earlierQuestions
    .slice(-maxEarlier)
    .map((q) => q.trim())
    .filter(Boolean);
  return [followUp.trim(), ...earlier.reverse()].join(' ');
}
