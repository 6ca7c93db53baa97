// A deterministic Embedder for unit tests: hashed bag of lower-cased words, unit
// length. Texts that share words are close, so retrieval orderings are real.
import type { Embedder } from '../../src/core/ports';
import { fnv1aString } from '../../src/core/fnv1a';

export class HashEmbedder implements Embedder {
  calls = 0;
  texts: string[] = [];
  constructor(readonly dim = 64) {}

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    signal?.throwIfAborted();
    this.calls++;
    this.texts.push(...texts);
    return texts.map((t) => embedText(t, this.dim));
  }
}

export function embedText(text: string, dim: number): Float32Array {
  const v = new Float32Array(dim);
  for (const w of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    v[(fnv1aString(w) >>> 0) % dim]! += 1;
  }
  const norm = Math.hypot(...v) || 1;
  if (norm === 1 && v.every((x) => x === 0)) v[0] = 1;
  return v.map((x) => x / norm);
}
