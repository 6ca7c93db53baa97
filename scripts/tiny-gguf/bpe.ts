// A byte-level BPE vocabulary (GPT-2 style, as llama.cpp's `gpt2` tokenizer
// reads it) built so that every word we name is exactly one token: the form's
// labels and slot alternatives, the chat template's words, a few text words.

/** GPT-2's byte → printable character table (bytes that are not printable move to U+0100…). */
export function bytesToUnicode(): string[] {
  const keep: number[] = [];
  for (let b = 0x21; b <= 0x7e; b++) keep.push(b);
  for (let b = 0xa1; b <= 0xac; b++) keep.push(b);
  for (let b = 0xae; b <= 0xff; b++) keep.push(b);
  const out: string[] = new Array(256);
  let n = 0;
  for (let b = 0; b < 256; b++) out[b] = String.fromCodePoint(keep.includes(b) ? b : 256 + n++);
  return out;
}

const BYTE_CHARS = bytesToUnicode();

/** The text as GPT-2 token characters (UTF-8 bytes mapped through the byte table). */
export function toByteChars(text: string): string {
  return [...new TextEncoder().encode(text)].map((b) => BYTE_CHARS[b]).join('');
}

/** llama.cpp's default pre-tokenizer (the GPT-2 split). */
export const PRETOKENIZE = /'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+/gu;

export interface Bpe {
  tokens: string[];
  merges: string[];
}

/** Applies merges by rank to one pre-token (already in byte characters). */
export function encodeWord(word: string, ranks: Map<string, number>): string[] {
  let parts = [...word];
  for (;;) {
    let best = -1;
    let bestRank = Infinity;
    for (let i = 0; i + 1 < parts.length; i++) {
      const r = ranks.get(`${parts[i]} ${parts[i + 1]}`);
      if (r !== undefined && r < bestRank) {
        bestRank = r;
        best = i;
      }
    }
    if (best < 0) return parts;
    parts = [...parts.slice(0, best), parts[best]! + parts[best + 1]!, ...parts.slice(best + 2)];
  }
}

/** 256 byte tokens, then one merge (and token) at a time until every word of `words` encodes to one token. */
export function buildBpe(words: readonly string[]): Bpe {
  const tokens = [...BYTE_CHARS];
  const known = new Set(tokens);
  const merges: string[] = [];
  const ranks = new Map<string, number>();
  const pieces = new Set<string>();
  for (const w of words) for (const m of w.match(PRETOKENIZE) ?? []) pieces.add(toByteChars(m));
  for (const piece of [...pieces].sort()) {
    for (let parts = encodeWord(piece, ranks); parts.length > 1; parts = encodeWord(piece, ranks)) {
      const merge = `${parts[0]} ${parts[1]}`;
      ranks.set(merge, merges.length);
      merges.push(merge);
      const joined = parts[0]! + parts[1]!;
      if (!known.has(joined)) {
        known.add(joined);
        tokens.push(joined);
      }
    }
  }
  return { tokens, merges };
}

/** Readable text of a token (inverse of the byte table), or null when its bytes are not valid UTF-8 on their own. */
export function tokenText(token: string): string {
  const bytes = [...token].map((c) => BYTE_CHARS.indexOf(c));
  if (bytes.some((b) => b < 0)) return token; // a special token, stored as itself
  return new TextDecoder().decode(new Uint8Array(bytes));
}
