// Slot probabilities from llama.cpp's log-probs. llama.cpp reports a softmax
// over the raw logits of the whole vocabulary (before grammar and temperature),
// so the ratio of two tokens' probabilities at one position is the ratio the
// grammar-masked sampler sees. With each spelling written as fixed token ids
// (./gbnf.ts) the alternatives part ways at the reply's first token, and the
// probability of each alternative normalised over its group is exactly the
// share of its spellings' first tokens there.
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
 * Probabilities of a slot's alternatives at `tokens[start]`, where the reply's slot word begins,
 * normalised over the group: each alternative's is the sum of its spellings' first tokens (given as
 * token id sequences, [alternative][spelling]). Null when the written token is none of them, or
 * when two alternatives' spellings start with the same token (the first token would not decide).
 */
export function readSlotIds(
  tokens: readonly WllamaTokenLogprob[],
  start: number,
  alts: readonly (readonly (readonly number[])[])[],
): number[] | null {
  if (start < 0 || alts.length < 2) return null;
  const owner = new Map<number, number>();
  for (const [k, spellings] of alts.entries()) {
    for (const seq of spellings) {
      const first = seq[0];
      if (first === undefined) return null;
      if (owner.has(first) && owner.get(first) !== k) return null;
      owner.set(first, k);
    }
  }
  const at = tokens[start];
  if (!at || !owner.has(at.id)) return null;
  const probs = alts.map(() => 0);
  const p = (id: number): number => {
    if (id === at.id) return Math.exp(at.logprob);
    const hit = at.top_logprobs.find((t) => t.id === id);
    return hit ? Math.exp(hit.logprob) : 0; // beyond the reported top tokens: counted as 0, as the reference does
  };
  for (const [id, k] of owner) probs[k]! += p(id);
  const sum = probs.reduce((a, b) => a + b, 0);
  return sum > 0 && Number.isFinite(sum) ? probs.map((x) => x / sum) : null;
}
