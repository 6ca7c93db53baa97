// Reads the probability of every alternative at a reflection slot from the
// engine's per-token log-probs. The engine takes them after the grammar mask,
// so at the token where the alternatives part ways the distribution is already
// restricted to the group; we follow the sampled path until it commits to one
// alternative and credit every other top token to the alternative it starts.

/** One generated token as web-llm reports it (`choices[0].logprobs.content[i]`). */
export interface TokenLogprob {
  token: string;
  logprob: number;
  top_logprobs: { token: string; logprob: number }[];
}

/** Character offset at which each token starts in the concatenated reply. */
export function tokenOffsets(tokens: readonly TokenLogprob[]): number[] {
  const starts: number[] = [];
  let at = 0;
  for (const t of tokens) {
    starts.push(at);
    at += t.token.length;
  }
  return starts;
}

/**
 * Probabilities of `alternatives` at the slot spanning `span` in `reply`, normalised
 * over the group, or null when the tokens do not cover the slot (malformed output).
 */
export function readSlot(
  tokens: readonly TokenLogprob[],
  reply: string,
  span: readonly [number, number],
  alternatives: readonly string[],
): number[] | null {
  const starts = tokenOffsets(tokens);
  const [slotStart] = span;
  const first = starts.findIndex((s, i) => s <= slotStart && slotStart < s + tokens[i]!.token.length);
  if (first < 0) return null;
  const probs = alternatives.map(() => 0);
  const compatible = (rest: string, among: number[]): number[] =>
    among.filter((k) => alternatives[k]!.startsWith(rest) || rest.startsWith(alternatives[k]!));
  let alive = alternatives.map((_, k) => k);
  let onPath = 1; // probability of the sampled path through the slot so far
  for (let i = first; i < tokens.length && alive.length > 1; i++) {
    const tok = tokens[i]!;
    const start = starts[i]!;
    const before = start < slotStart ? reply.slice(start, slotStart) : '';
    const consumed = start > slotStart ? reply.slice(slotStart, start) : '';
    for (const alt of tok.top_logprobs) {
      if (alt.token === tok.token || !alt.token.startsWith(before)) continue;
      const ks = compatible(consumed + alt.token.slice(before.length), alive);
      if (ks.length === 1) probs[ks[0]!]! += onPath * Math.exp(alt.logprob);
    }
    onPath *= Math.exp(tok.logprob);
    alive = compatible(consumed + tok.token.slice(before.length), alive);
    if (alive.length === 0) return null;
  }
  if (alive.length !== 1) return null;
  probs[alive[0]!]! += onPath;
  const sum = probs.reduce((a, b) => a + b, 0);
  if (!(sum > 0) || !Number.isFinite(sum)) return null;
  return probs.map((p) => p / sum);
}

/** Sum of log-probs and count of the tokens that fall inside `span` (the segment text). */
export function spanLogprob(tokens: readonly TokenLogprob[], span: readonly [number, number]): { logprob: number; count: number } {
  const starts = tokenOffsets(tokens);
  let logprob = 0;
  let count = 0;
  tokens.forEach((t, i) => {
    const s = starts[i]!;
    const e = s + t.token.length;
    if (e > span[0] && s < span[1]) {
      logprob += t.logprob;
      count++;
    }
  });
  return { logprob, count };
}

/**
 * Native Self-RAG models emit each reflection token as a single token: the
 * probability of each alternative is read from the top log-probs where the first
 * token of the group was written. Alternatives outside the top 5 count as 0,
 * as the reference does for tokens outside vLLM's returned top-k.
 */
export function readNativeGroup(tokens: readonly TokenLogprob[], alternatives: readonly string[]): { probs: number[]; index: number } | null {
  const index = tokens.findIndex((t) => alternatives.includes(t.token));
  if (index < 0) return null;
  const top = tokens[index]!.top_logprobs;
  const probs = alternatives.map((a) => {
    const hit = top.find((t) => t.token === a);
    return hit ? Math.exp(hit.logprob) : 0;
  });
  const sum = probs.reduce((a, b) => a + b, 0);
  if (!(sum > 0)) return null;
  return { probs: probs.map((p) => p / sum), index };
}
