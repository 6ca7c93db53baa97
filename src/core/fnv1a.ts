// FNV-1a (32-bit), the one small non-cryptographic hash for places that need a fast, stable
// number rather than a content address (cyrb53.ts) or an integrity check (SHA-256): which word
// shard holds a term, the id table's slots, the compact journal's row check, the word index's
// checksum. Stored files depend on it (word shards are found by it, journals and snapshots are
// checked with it): changing it means a new format version of each.

export const FNV_OFFSET = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;

/** One step: folds a code unit, byte or word into the running hash (not yet made unsigned). */
export const fnv1aStep = (h: number, x: number): number => Math.imul(h ^ x, FNV_PRIME);

/** Over a string's UTF-16 code units, continuing from `h`; signed 32-bit (`>>> 0` for unsigned). */
export function fnv1aString(s: string, h = FNV_OFFSET): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}

/** Over bytes `from` … `to` − 1, continuing from `h`; signed 32-bit. */
export function fnv1aBytes(b: Uint8Array, from = 0, to = b.length, h = FNV_OFFSET): number {
  for (let i = from; i < to; i++) h = Math.imul(h ^ b[i]!, FNV_PRIME);
  return h;
}

/** Over `count` 32-bit words from `offset`, one step a word, continuing from `h`; signed 32-bit. */
export function fnv1aWords(words: Uint32Array, offset: number, count: number, h = FNV_OFFSET): number {
  for (let w = 0; w < count; w++) h = Math.imul(h ^ words[offset + w]!, FNV_PRIME);
  return h;
}

/**
 * Murmur3's final mix, unsigned: FNV-1a's low bits are weak for inputs that differ only at
 * their end (ids `doc-…#1`, `#2`), so a table that masks the low bits mixes them first.
 */
export function avalanche(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
