import { beforeAll, describe, expect, it } from 'vitest';
import { FlatIndex } from '../../../src/vector/flat-index';
import { decodeVectors, type VectorIndex } from '../../../src/vector/vector-index';
import { VoyIndex } from '../../../workers/index/voy-index';
import { loadVoyInNode } from '../../../workers/index/voy-node';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5;
  };
}
const randomVectors = (n: number, dim: number, seed: number) => {
  const r = rng(seed);
  return Array.from({ length: n }, () => Float32Array.from({ length: dim }, r));
};
const bruteForce = (ids: string[], vs: Float32Array[], q: Float32Array, k: number) => {
  const norm = (v: Float32Array) => Math.hypot(...v);
  return ids
    .map((id, i) => ({ id, score: vs[i]!.reduce((s, x, j) => s + x * q[j]!, 0) / (norm(vs[i]!) * norm(q)) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, k);
};

beforeAll(() => loadVoyInNode());

const kinds: Array<[string, (dim: number) => VectorIndex, (b: Uint8Array) => VectorIndex]> = [
  ['flat', (d) => new FlatIndex(d), (b) => FlatIndex.deserialize(b)],
  ['voy', (d) => new VoyIndex(d), (b) => VoyIndex.deserialize(b)],
];

describe.each(kinds)('%s index', (_name, make, load) => {
  it('returns the exact top-k with cosine scores, best first', () => {
    const dim = 16;
    const vs = randomVectors(300, dim, 1);
    const ids = vs.map((_, i) => `p${i}`);
    const index = make(dim);
    index.add(ids, vs);
    for (const q of randomVectors(5, dim, 2)) {
      const got = index.search(q, 10);
      const want = bruteForce(ids, vs, q, 10);
      expect(got.map((h) => h.id)).toEqual(want.map((h) => h.id));
      got.forEach((h, i) => expect(h.score).toBeCloseTo(want[i]!.score, 5));
    }
  });

  it('removes, replaces and re-adds by id', () => {
    const index = make(3);
    index.add(['a', 'b', 'c'], [new Float32Array([1, 0, 0]), new Float32Array([0, 1, 0]), new Float32Array([0, 0, 1])]);
    expect(index.remove(['a', 'zzz'])).toBe(1);
    expect(index.size()).toBe(2);
    expect(index.search(new Float32Array([1, 0, 0]), 3).map((h) => h.id)).not.toContain('a');
    index.add(['b'], [new Float32Array([2, 0, 0])]);
    expect(index.size()).toBe(2);
    expect(index.search(new Float32Array([1, 0, 0]), 1)).toEqual([{ id: 'b', score: expect.closeTo(1, 6) }]);
    index.add(['a'], [new Float32Array([0, 0, 5])]);
    expect(
      index
        .search(new Float32Array([0, 0, 1]), 2)
        .map((h) => h.id)
        .sort(),
    ).toEqual(['a', 'c']);
    index.clear();
    expect(index.size()).toBe(0);
    expect(index.search(new Float32Array([1, 0, 0]), 3)).toEqual([]);
  });

  it('persists to bytes and back, with the same results, at most 1.1× the raw floats', () => {
    const dim = 64;
    const vs = randomVectors(200, dim, 3);
    const ids = vs.map((_, i) => `doc-${i % 7}#${i}`);
    const index = make(dim);
    index.add(ids, vs);
    index.remove(['doc-0#0', 'doc-3#10']);
    const bytes = index.serialize();
    expect(bytes.length).toBeLessThanOrEqual(1.1 * index.size() * dim * 4);
    const back = load(bytes);
    expect(back.size()).toBe(198);
    const q = randomVectors(1, dim, 4)[0]!;
    expect(back.search(q, 10)).toEqual(index.search(q, 10));
  });

  it('refuses bad vectors without changing the index', () => {
    const index = make(3);
    index.add(['a'], [new Float32Array([1, 0, 0])]);
    expect(() => index.add(['b', 'c'], [new Float32Array([0, 1, 0]), new Float32Array([0, 0])])).toThrow(
      /2 dimensions/,
    );
    expect(() => index.add(['b'], [new Float32Array([0, 0, 0])])).toThrow(/zero/);
    expect(index.size()).toBe(1);
    expect(index.has('b')).toBe(false);
  });
});

describe('vector file format', () => {
  it('is shared: flat bytes load into voy and vice versa', () => {
    const vs = randomVectors(50, 8, 5);
    const ids = vs.map((_, i) => `x${i}`);
    const flat = new FlatIndex(8);
    flat.add(ids, vs);
    const voy = VoyIndex.deserialize(flat.serialize());
    const q = vs[7]!;
    const want = flat.search(q, 5);
    for (const got of [voy.search(q, 5), FlatIndex.deserialize(voy.serialize()).search(q, 5)]) {
      expect(got.map((h) => h.id)).toEqual(want.map((h) => h.id));
      got.forEach((h, i) => expect(h.score).toBeCloseTo(want[i]!.score, 6));
    }
  });

  it('rejects corrupt or truncated bytes with a clear error', () => {
    const flat = new FlatIndex(4);
    flat.add(['a'], [new Float32Array([1, 2, 3, 4])]);
    const bytes = flat.serialize();
    expect(() => decodeVectors(bytes.subarray(0, bytes.length - 1))).toThrow(/truncated/);
    expect(() => decodeVectors(new Uint8Array(32))).toThrow(/magic/);
  });
});

describe('flat index kernels', () => {
  it('the WebAssembly SIMD kernel scores exactly like the JavaScript one, across growth and removal', async () => {
    const { simdKernel, simdSupported } = await import('../../../src/vector/simd-kernel');
    const { jsKernel } = await import('../../../src/vector/dot-kernel');
    expect(simdSupported()).toBe(true); // Node 20 and current browsers have wasm SIMD
    const dim = 40;
    const simd = new FlatIndex(dim, simdKernel(dim));
    const js = new FlatIndex(dim, jsKernel(dim));
    // Added in small batches so storage grows (and the wasm memory is re-viewed) many times.
    const vs = randomVectors(3000, dim, 11);
    for (let i = 0; i < vs.length; i += 97) {
      const ids = vs.slice(i, i + 97).map((_, j) => `v${i + j}`);
      simd.add(ids, vs.slice(i, i + 97));
      js.add(ids, vs.slice(i, i + 97));
    }
    const gone = vs.map((_, i) => `v${i}`).filter((_, i) => i % 5 === 0);
    simd.remove(gone);
    js.remove(gone);
    for (const q of randomVectors(10, dim, 12)) {
      const a = simd.search(q, 10);
      const b = js.search(q, 10);
      expect(a.map((h) => h.id)).toEqual(b.map((h) => h.id));
      a.forEach((h, i) => expect(h.score).toBeCloseTo(b[i]!.score, 5));
    }
    expect(FlatIndex.deserialize(simd.serialize(), simdKernel).search(vs[1]!, 1)[0]!.id).toBe('v1');
  });
});
