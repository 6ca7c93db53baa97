// Reads the probability of every alternative at a reflection slot from the
// engine's per-token log-probs. The engine takes them after the grammar mask,
// so at the token where the alternatives part ways the distribution is already
// restricted to the group; we follow the sampled path until it commits to one
// alternative and credit every other top token to the alternative it starts.
//
// What is not credited: tokens outside the top 5 (web-llm returns at most 5,
// where the reference asks vLLM for every log-prob), and top tokens that leave
// the branch open (a bare " " off the sampled path, or SentencePiece's byte
// token for a space beside "▁"). With U that mass, every probability read is
// within U / (1 − U) of the exact marginal: credited mass is a lower bound on
// each alternative's marginal, the marginals sum to 1, and reading renormalises
// over the 1 − U that was credited. (Sharing the open tokens' mass in the
// proportions the path shows afterwards was tried and measured no better.)

/** One generated token as web-llm reports it (`choices[0].logprobs.content[i]`). */
export interface TokenLogprob {
  token: string;
  logprob: number;
  top_logprobs: { token: string; logprob: number }[];
}

export interface TokenAlignment {
  /** Where each token starts and ends in the reply (equal when it covers nothing, e.g. a stop token). */
  start: number[];
  end: number[];
  /** Characters of the reply the token covers that its own string lacks (SentencePiece's leading space). */
  lost: string[];
}

const SOFT = '\ufffd';
// How far a token may sit past the previous one when tokens before it were
// reported as U+FFFD or not at all (a streamed token ending mid-character).
const MAX_GAP = 16;

/**
 * Places each token in the reply's characters. Token strings are each token
 * decoded alone, which is not a slice of the reply: SentencePiece tokenizers
 * drop the word's leading space ("▁fully" → "fully"), a token holding part of a
 * multi-byte character reads U+FFFD, and a streamed token that ends
 * mid-character never arrives. So a token is matched where the previous one
 * ended, else after one dropped space, else (after a U+FFFD or a gap) a little
 * further on the same line; one that matches nowhere covers nothing.
 */
export function alignTokens(tokens: readonly TokenLogprob[], reply: string): TokenAlignment {
  const out: TokenAlignment = { start: [], end: [], lost: [] };
  let pos = 0;
  let soft = false; // the previous token ended in a character we could not see
  let lastSoft = -1;
  for (let i = 0; i < tokens.length; i++) {
    const parts = tokens[i]!.token.split(/(\ufffd+)/).filter((p, k) => k === 0 || p !== '');
    let start = -1;
    let lost = '';
    for (const part of parts) {
      if (part.startsWith(SOFT)) {
        if (start < 0) start = pos;
        soft = true;
        continue;
      }
      const first = start < 0;
      const at = matchAt(reply, part, pos, first, soft);
      if (at === null) continue;
      // The previous token ended in unseen characters: it reaches up to here.
      if (first && soft && lastSoft === i - 1 && at.at > out.end[lastSoft]!) out.end[lastSoft] = at.at;
      if (first) {
        start = at.at;
        lost = at.lost;
      }
      pos = at.at + at.lost.length + part.length;
      soft = false;
    }
    if (start < 0) start = pos;
    out.start.push(start);
    out.end.push(pos);
    out.lost.push(lost);
    if (soft) lastSoft = i;
  }
  // A reply that ends in characters only U+FFFD tokens stood for.
  if (soft && lastSoft === tokens.length - 1) {
    let end = pos;
    while (end < reply.length && reply.charCodeAt(end) > 127) end++;
    out.end[lastSoft] = end;
  }
  return out;
}

function matchAt(
  reply: string,
  part: string,
  pos: number,
  first: boolean,
  afterGap: boolean,
): { at: number; lost: string } | null {
  if (part === '') {
    // SentencePiece's bare "▁" decodes to "".
    return first && reply[pos] === ' ' ? { at: pos, lost: ' ' } : null;
  }
  if (reply.startsWith(part, pos)) return { at: pos, lost: '' };
  if (first && reply[pos] === ' ' && reply.startsWith(part, pos + 1)) return { at: pos, lost: ' ' };
  if (!afterGap) return null;
  for (let p = pos + 1; p <= pos + MAX_GAP && p < reply.length && reply[p - 1] !== '\n'; p++) {
    if (reply.startsWith(part, p)) return { at: p, lost: '' };
    if (first && reply[p] === ' ' && reply.startsWith(part, p + 1)) return { at: p, lost: ' ' };
  }
  return null;
}

type Spellings = readonly (string | readonly string[])[];

/**
 * Probabilities of `alternatives` at the slot spanning `span` in `reply`, normalised
 * over the group, or null when the tokens do not cover the slot (malformed output).
 * An alternative may be a list of spellings whose probabilities add up.
 */
export function readSlot(
  tokens: readonly TokenLogprob[],
  reply: string,
  span: readonly [number, number],
  alternatives: Spellings,
): number[] | null {
  return readSlotBounded(tokens, reply, span, alternatives)?.probs ?? null;
}

/**
 * readSlot, with what it could not credit: `unseen` is the mass outside the top
 * 5, `ambiguous` the mass of top tokens that leave the branch open. With
 * U = ambiguous + unseen, every probability read is within U / (1 − U) of the
 * exact marginal (see the top of this file).
 */
export function readSlotBounded(
  tokens: readonly TokenLogprob[],
  reply: string,
  span: readonly [number, number],
  alternatives: Spellings,
  alignment: TokenAlignment = alignTokens(tokens, reply),
): { probs: number[]; ambiguous: number; unseen: number } | null {
  const groups = alternatives.map((a) => (typeof a === 'string' ? [a] : a));
  const { start, end, lost } = alignment;
  const [slotStart] = span;
  const first = tokens.findIndex((_, i) => start[i]! <= slotStart && slotStart < end[i]!);
  if (first < 0) return null;
  const probs = groups.map(() => 0);
  const compatible = (rest: string, among: number[]): number[] =>
    among.filter((k) => groups[k]!.some((a) => a.startsWith(rest) || rest.startsWith(a)));
  let alive = groups.map((_, k) => k);
  let onPath = 1; // probability of the sampled path through the slot so far
  let ambiguous = 0;
  for (let i = first; i < tokens.length && alive.length > 1; i++) {
    const tok = tokens[i]!;
    const s = start[i]!;
    const before = s < slotStart ? reply.slice(s, slotStart) : '';
    const consumed = s > slotStart ? reply.slice(slotStart, s) : '';
    let skipped = false;
    for (const alt of tok.top_logprobs) {
      // The sampled token itself (once: another id may decode to the same string).
      if (!skipped && alt.token === tok.token && alt.logprob === tok.logprob) {
        skipped = true;
        continue;
      }
      const text = lost[i]! + alt.token;
      if (!text.startsWith(before)) continue;
      const ks = compatible(consumed + text.slice(before.length), alive);
      const p = onPath * Math.exp(alt.logprob);
      if (ks.length === 1) probs[ks[0]!]! += p;
      else if (ks.length > 1) ambiguous += p;
    }
    onPath *= Math.exp(tok.logprob);
    alive = compatible(consumed + (lost[i]! + tok.token).slice(before.length), alive);
    if (alive.length === 0) return null;
  }
  if (alive.length !== 1) return null;
  probs[alive[0]!]! += onPath;
  const sum = probs.reduce((a, b) => a + b, 0);
  if (!(sum > 0) || !Number.isFinite(sum)) return null;
  return { probs: probs.map((p) => p / sum), ambiguous, unseen: Math.max(0, 1 - sum - ambiguous) };
}

/** Sum of log-probs and count of the tokens that fall inside `span` (the segment text) of `reply`. */
export function spanLogprob(
  tokens: readonly TokenLogprob[],
  reply: string,
  span: readonly [number, number],
): { logprob: number; count: number } {
  const { start, end } = alignTokens(tokens, reply);
  let logprob = 0;
  let count = 0;
  tokens.forEach((t, i) => {
    if (end[i]! > span[0] && start[i]! < span[1]) {
      logprob += t.logprob;
      count++;
    }
  });
  return { logprob, count };
}
