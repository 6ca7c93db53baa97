// Terms are kept as 64-bit hashes, never as strings: at a million passages the vocabulary's
// strings (and a JS object per term) were most of MiniSearch's 2.9 GB. Two 32-bit lanes over
// the UTF-16 code units with cyrb53's mixing (src/core/cyrb53.ts: an invertible final mix, so
// the 64 output bits are the 64 state bits). Two distinct terms share a hash with odds ~2^-64 per pair: for a
// vocabulary of V terms, ~V²/2^65 that any pair does (1e-7 at V = 1.9M). Changing this
// function changes every stored snapshot: bump SNAPSHOT_VERSION in word-snapshot.ts with it.

import { cyrb53 } from '../../core/cyrb53';

/** Writes the two 32-bit halves of `s`'s hash into out[0], out[1]. */
export const hashTerm: (s: string, out: Uint32Array) => void = cyrb53;
