// Slot probabilities from llama.cpp's log-probs. llama.cpp reports a softmax
// over the raw logits of the whole vocabulary (before grammar and temperature),
// so the ratio of two tokens' probabilities at one position is the ratio the
// grammar-masked sampler sees. With each alternative written as fixed token ids
// (./gbnf.ts) the alternatives part ways at one token, and the probability of
// each alternative normalised over its group is exactly its token's share there.
import type { WllamaTokenLogprob } from './protocol';

/** Index of the token starting at character `at` of the joined token texts, or -1. */
export function tokenAt(tokens: readonly WllamaTokenLogprob[], at: number): number {
  let pos = 0;
  for (let i = 0; i < tokens.length; i++) {
    if (pos === at) return i;
    pos += tokens[i]!.token.length;
    if (pos > at) return -1;
  }
  return -1;
}

/**
 * Probabilities of the alternatives (as token id sequences) of the slot whose
 * first token is `tokens[start]`, normalised over the group; null when the reply
 * does not hold one of them there or the position's top tokens hold none.
 */
export function readSlotIds(
  tokens: readonly WllamaTokenLogprob[],
  start: number,
  seqs: readonly (readonly number[])[],
): number[] | null {
  if (start < 0 || seqs.length < 2) return null;
  let d = 0;
  while (seqs.every((s) => d < s.length && s[d] === seqs[0]![d])) d++;
  // Alternatives must part ways at one token (they do for every form: first characters differ, or a shared space).
  const firsts = seqs.map((s) => s[d]);
  if (firsts.some((f) => f === undefined) || new Set(firsts).size !== seqs.length) return null;
  const at = tokens[start + d];
  if (!at) return null;
  for (let i = 0; i < d; i++) if (tokens[start + i]?.id !== seqs[0]![i]) return null;
  if (!firsts.includes(at.id)) return null;
  const probs = firsts.map((id) => {
    if (id === at.id) return Math.exp(at.logprob);
    const hit = at.top_logprobs.find((t) => t.id === id);
    return hit ? Math.exp(hit.logprob) : 0; // beyond the reported top tokens: counted as 0, as the reference does
  });
  const sum = probs.reduce((a, b) => a + b, 0);
  return sum > 0 && Number.isFinite(sum) ? probs.map((p) => p / sum) : null;
}

/** Native models: the group's probabilities where its first token was written, normalised over the group. */
export function readGroupIds(
  tokens: readonly WllamaTokenLogprob[],
  ids: readonly number[],
  from = 0,
): { probs: number[]; index: number } | null {
  const index = tokens.findIndex((t, i) => i >= from && ids.includes(t.id));
  if (index < 0) return null;
  return { probs: groupAt(tokens[index]!, ids), index };
}

/** The group's probabilities at one position, normalised over the group (all zero when none is reported). */
export function groupAt(at: WllamaTokenLogprob, ids: readonly number[]): number[] {
  const probs = ids.map((id) => {
    if (id === at.id) return Math.exp(at.logprob);
    const hit = at.top_logprobs.find((t) => t.id === id);
    return hit ? Math.exp(hit.logprob) : 0;
  });
  const sum = probs.reduce((a, b) => a + b, 0);
  return sum > 0 ? probs.map((p) => p / sum) : probs;
}
