// One seeded generator (mulberry32) for everything the project makes deterministically: the
// compact codes' random rotation (which the writer and every reader must build alike), tiny
// models, engine doubles, random trees and benchmark corpora. It lives in the core because the
// product needs it; scripts, benches and tests import it from here.

/** Mulberry32's step constant (exported so a test can hold that it is written nowhere else). */
export const MULBERRY32_STEP = 0x6d2b79f5;

/** A stream of uniform 32-bit unsigned integers from `seed`. */
export function mulberry32Words(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + MULBERRY32_STEP) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** A stream of uniform numbers in [0, 1) from `seed`: the same words, scaled. */
export function mulberry32(seed: number): () => number {
  const next = mulberry32Words(seed);
  return () => next() / 4294967296;
}
