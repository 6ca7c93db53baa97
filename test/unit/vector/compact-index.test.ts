// The compact index behind the VectorIndex port: what the library relies on (the same
// answers as exact search on embedding-like data, add/remove/replace by id, a library
// saved by it loads into any other kind) and the kernel it scans with.
import { describe, expect, it } from 'vitest';
import { CompactIndex, TRAIN_AT } from '../../../src/vector/compact-index';
import { FlatIndex } from '../../../src/vector/flat-index';
import { fastScanKernel, fastScanSimdSupported, jsFastScanKernel } from '../../../src/vector/rabitq-kernel';
import { MemoryRowStore } from '../../../src/vector/row-store';
import { mulberry32 } from '../../../src/core/mulberry32';
import { embeddingModel, embeddingVectors } from '../../../bench/scale/vectors';

/** Topic clusters around a shared offset: the shape sentence embeddings have. */
function clustered(n: number, dim: number, seed: number, topics = 40): Float32Array[] {
  const r = mulberry32(seed);
  const g = () => r() + r() + r() - 1.5;
  const shared = Float32Array.from({ length: dim }, () => g() * 0.6);
  const centres = Array.from({ length: topics }, () =>
    Float32Array.from({ length: dim }, (_, j) => shared[j]! + g() * (j < dim / 4 ? 2 : 0.7)),
  );
  return Array.from({ length: n }, () => {
    const c = centres[Math.floor(r() * topics)]!;
    return Float32Array.from({ length: dim }, (_, j) => c[j]! + g() * 0.5);
  });
}

describe('compact index', () => {
  it('finds what exact search finds on embedding-like vectors (recall@10 ≥ 0.95)', () => {
    // The bench's generator: shared offset, topics, low-rank variation (bench/scale/vectors.ts).
    const dim = 384;
    const model = embeddingModel(dim, 1);
    const set = embeddingVectors(model, 8000, dim);
    const vs = Array.from({ length: set.n }, (_, i) => set.row(i));
    const ids = vs.map((_, i) => `p${i}`);
    const flat = new FlatIndex(dim);
    const compact = new CompactIndex(dim, { candidates: 400, rescore: 50 });
    flat.add(ids, vs);
    compact.add(ids, vs);
    let hits = 0;
    const qs = embeddingVectors(model, 40, dim);
    const queries = Array.from({ length: qs.n }, (_, i) => qs.row(i));
    for (const q of queries) {
      const want = new Set(flat.search(q, 10).map((h) => h.id));
      const got = compact.search(q, 10);
      hits += got.filter((h) => want.has(h.id)).length;
      // Scores are cosines (from int8 rows), best first.
      for (const h of got)
        expect(h.score).toBeCloseTo(
          flat.cosine(
            q.map((x, _i, a) => x / Math.hypot(...a)),
            h.id,
          )!,
          2,
        );
      expect(got.map((h) => h.score)).toEqual([...got.map((h) => h.score)].sort((a, b) => b - a));
    }
    expect(hits / (10 * queries.length)).toBeGreaterThanOrEqual(0.95);
  });

  it('adds to a trained index without re-encoding it, and finds the new rows', () => {
    const dim = 64;
    const vs = clustered(TRAIN_AT + 500, dim, 3);
    const index = new CompactIndex(dim, { candidates: 200, rescore: 40 });
    // The first batch stays below TRAIN_AT; the second crosses it (the first batch's codes are re-encoded then).
    const ids = vs.map((_, i) => `a${i}`);
    index.add(ids.slice(0, 600), vs.slice(0, 600));
    index.add(ids.slice(600), vs.slice(600));
    for (const i of [3, 599, 600, 1500]) expect(index.search(vs[i]!, 1)[0]!.id).toBe(`a${i}`);
    const late = clustered(30, dim, 4);
    index.add(
      late.map((_, i) => `late${i}`),
      late,
    );
    expect(index.size()).toBe(TRAIN_AT + 530);
    for (let i = 0; i < late.length; i++) expect(index.search(late[i]!, 1)[0]!.id).toBe(`late${i}`);
  });

  it('removes, replaces and re-adds by id, keeping the other rows findable', () => {
    const dim = 32;
    const vs = clustered(TRAIN_AT + 100, dim, 5);
    const ids = vs.map((_, i) => `p${i}`);
    const index = new CompactIndex(dim, { candidates: 300, rescore: 50 });
    index.add(ids, vs);
    expect(index.remove(['p0', 'p7', 'missing'])).toBe(2);
    expect(index.has('p0')).toBe(false);
    expect(index.size()).toBe(vs.length - 2);
    // The last row moved into a hole: it must still be found by its own vector.
    const last = vs.length - 1;
    expect(index.search(vs[last]!, 1)[0]!.id).toBe(`p${last}`);
    expect(index.search(vs[0]!, 5).map((h) => h.id)).not.toContain('p0');
    index.add(['p3'], [vs[9]!]);
    expect(
      index.cosine(
        vs[9]!.map((x, _i, a) => x / Math.hypot(...a)),
        'p3',
      ),
    ).toBeCloseTo(1, 2);
    index.clear();
    expect(index.size()).toBe(0);
    expect(index.search(vs[1]!, 3)).toEqual([]);
  });

  it('serialises to the index-neutral format that the flat index loads', () => {
    const dim = 16;
    const vs = clustered(50, dim, 6);
    const ids = vs.map((_, i) => `p${i}`);
    const index = new CompactIndex(dim, { store: new MemoryRowStore(dim + 4) });
    index.add(ids, vs);
    const flat = FlatIndex.deserialize(index.serialize());
    expect(flat.size()).toBe(50);
    expect(flat.search(vs[3]!, 1)[0]).toMatchObject({ id: 'p3', score: expect.closeTo(1, 2) });
    const back = CompactIndex.deserialize(index.serialize());
    expect(back.search(vs[4]!, 1)[0]!.id).toBe('p4');
  });

  it('refuses bad input without changing the index', () => {
    const index = new CompactIndex(4);
    index.add(['a'], [new Float32Array([1, 0, 0, 0])]);
    expect(() => index.add(['b', 'c'], [new Float32Array([0, 1, 0, 0]), new Float32Array([0, 0, 0, 0])])).toThrow(
      /zero or non-finite/,
    );
    expect(() => index.add(['d'], [new Float32Array(3)])).toThrow(/3 dimensions, the index has 4/);
    expect(index.size()).toBe(1);
    expect(() => new CompactIndex(4, { store: new MemoryRowStore(99) })).toThrow(/99-byte rows/);
  });
});

describe('fast-scan kernel', () => {
  it('gives the same ⟨code, 4-bit question⟩ in WebAssembly SIMD, in JavaScript and by definition, and keeps codes as written', () => {
    expect(fastScanSimdSupported()).toBe(true);
    const r = mulberry32(7);
    for (const bits of [128, 384, 768]) {
      const simd = fastScanKernel(bits);
      const js = jsFastScanKernel(bits);
      const rows = 37;
      simd.reserve(rows);
      js.reserve(rows);
      const codes = Array.from({ length: rows }, () =>
        Uint8Array.from({ length: bits / 8 }, () => Math.floor(r() * 256)),
      );
      codes.forEach((c, row) => {
        simd.setRow(row, c);
        js.setRow(row, c);
      });
      const u = Array.from({ length: bits }, () => Math.floor(r() * 16));
      simd.setQuery(u, bits);
      js.setQuery(u, bits);
      simd.score(rows);
      js.score(rows);
      const byDefinition = codes.map((c) => u.reduce((s, level, j) => s + ((c[j >> 3]! >> (j & 7)) & 1) * level, 0));
      expect([...simd.dots.subarray(0, rows)]).toEqual(byDefinition);
      expect([...js.dots.subarray(0, rows)]).toEqual(byDefinition);
      // Rows read back as written, after a move and after growing.
      const out = new Uint8Array(bits / 8);
      simd.moveRow(36, 3);
      simd.reserve(rows * 50);
      for (const [row, want] of [
        [3, codes[36]!],
        [17, codes[17]!],
        [35, codes[35]!],
      ] as const) {
        simd.getRow(row, out);
        expect([...out]).toEqual([...want]);
      }
    }
  });
});
