// RaBitQ codes (src/vector/rabitq.ts): the rotation the page and the writer must build alike, the
// codes' layout (the first plane is the 1-bit code), and the estimate both indexes rank by.
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../src/core/mulberry32';
import {
  codeDot,
  codeSpace,
  encodeCode,
  estimate,
  meanOf,
  planeBytes,
  prepareQuery,
  Rotation,
} from '../../../src/vector/rabitq';

const random = mulberry32(3);
const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
const vec = (d: number) => Float64Array.from({ length: d }, gauss);
const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0;
  for (let j = 0; j < a.length; j++) s += a[j]! * b[j]!;
  return s;
};

describe('the rotation', () => {
  it('keeps lengths and inner products, at dimensions that are and are not powers of two', () => {
    for (const d of [8, 64, 100, 384, 768]) {
      const r = new Rotation(d, 7);
      const [x, y] = [vec(d), vec(d)];
      const [px, py] = [new Float64Array(d), new Float64Array(d)];
      r.apply(x, px);
      r.apply(y, py);
      expect(dot(px, px)).toBeCloseTo(dot(x, x), 8);
      expect(dot(px, py)).toBeCloseTo(dot(x, y), 8);
    }
  });

  it('is the same map from the same seed, another from another, and mixes every coordinate', () => {
    const e = new Float64Array(384);
    e[5] = 1;
    const [a, b, c] = [new Float64Array(384), new Float64Array(384), new Float64Array(384)];
    new Rotation(384, 7).apply(e, a);
    new Rotation(384, 7).apply(e, b);
    new Rotation(384, 8).apply(e, c);
    expect([...a]).toEqual([...b]);
    expect([...a]).not.toEqual([...c]);
    // A basis vector spreads over the coordinates: none keeps more than a small share.
    expect(Math.max(...a.map((x) => x * x))).toBeLessThan(0.05);
  });
});

describe('codes and their estimates', () => {
  const d = 384;
  const centre = Float32Array.from(vec(d), (x) => x * 0.02);
  const space = codeSpace(d, centre, 11);
  const pb = planeBytes(d);

  it('lay out B planes, most significant first, the first being the 1-bit code of the same vector', () => {
    const v = Float32Array.from(vec(d));
    const one = new Uint8Array(pb);
    const four = new Uint8Array(4 * pb);
    const s1 = encodeCode(space, v, 1, one);
    const s4 = encodeCode(space, v, 4, four);
    expect([...four.subarray(0, pb)]).toEqual([...one]);
    expect(s4.signFactor).toBeCloseTo(s1.factor, 10);
    // Bits past the dimension stay clear (384 is a whole number of 128-bit chunks; 100 is not).
    const small = codeSpace(100, new Float32Array(100), 1);
    const code = new Uint8Array(2 * planeBytes(100));
    encodeCode(small, Float32Array.from(vec(100)), 2, code);
    for (const plane of [0, 1])
      expect(code.subarray(plane * 16 + 13, (plane + 1) * 16).every((b) => b === 0)).toBe(true);
  });

  it('codeDot is ⟨levels, P q⟩ by definition', () => {
    const v = Float32Array.from(vec(d));
    const q = Float32Array.from(vec(d));
    const code = new Uint8Array(2 * pb);
    encodeCode(space, v, 2, code);
    const pq = prepareQuery(space, q);
    let want = 0;
    for (let j = 0; j < d; j++) {
      const level = (((code[j >> 3]! >> (j & 7)) & 1) << 1) | ((code[pb + (j >> 3)]! >> (j & 7)) & 1);
      want += level * pq.rotated[j]!;
    }
    expect(codeDot(pq, code, 0, 2, pb)).toBeCloseTo(want, 4);
    expect(pq.centreDot).toBeCloseTo(dot(centre, q), 5);
  });

  it('estimate ⟨v, q⟩ without bias, more closely the more bits', () => {
    const errors: number[] = [];
    for (const bits of [1, 2, 4]) {
      let bias = 0,
        sq = 0;
      const trials = 300;
      for (let t = 0; t < trials; t++) {
        const v = Float32Array.from(vec(d));
        const q = Float32Array.from(vec(d));
        const code = new Uint8Array(bits * pb);
        const { factor } = encodeCode(space, v, bits, code);
        const e = estimate(prepareQuery(space, q), code, 0, bits, factor, pb) - dot(v, q);
        bias += e;
        sq += e * e;
      }
      const rmse = Math.sqrt(sq / trials);
      // |v||q| ≈ 384 here: the error is a few hundredths of it at 1 bit, and the mean error a small part of one error.
      expect(Math.abs(bias / trials)).toBeLessThan(rmse / 4);
      errors.push(rmse);
    }
    expect(errors[1]!).toBeLessThan(errors[0]! * 0.7);
    expect(errors[2]!).toBeLessThan(errors[1]! * 0.5);
  });

  it('meanOf is the mean of the rows', () => {
    const rows = [Float32Array.of(1, 2), Float32Array.of(3, 6)];
    expect([...meanOf(2, (r) => rows[r]!, 2)]).toEqual([2, 4]);
  });
});
