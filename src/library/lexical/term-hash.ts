// Terms are kept as 64-bit hashes, never as strings: at a million passages the vocabulary's
// strings (and a JS object per term) were most of MiniSearch's 2.9 GB. Two 32-bit lanes over
// the UTF-16 code units with cyrb53's mixing (an invertible final mix, so the 64 output bits
// are the 64 state bits). Two distinct terms share a hash with odds ~2^-64 per pair: for a
// vocabulary of V terms, ~V²/2^65 that any pair does (1e-7 at V = 1.9M). Changing this
// function changes every stored snapshot: bump SNAPSHOT_VERSION in word-snapshot.ts with it.

/** Writes the two 32-bit halves of `s`'s hash into out[0], out[1]. */
export function hashTerm(s: string, out: Uint32Array): void {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  out[0] = h1 >>> 0;
  out[1] = h2 >>> 0;
}
