// cyrb53 (bryc, public domain): a fast 64-bit string hash in plain JavaScript, for content
// addresses (document ids) and the word index's terms. Not cryptographic; crypto.subtle is
// missing on pages served over plain http (a LAN demo), and async besides. Changing it changes
// every stored document id and word-index snapshot.

/** Writes the two 32-bit halves of `s`'s hash (over its UTF-16 code units) into out[0], out[1]. */
export function cyrb53(s: string, out: Uint32Array): void {
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
