// The m best of many scores, best first, by a min-heap of m: one comparison for most rows, so a
// pass over 100,000 estimates keeps its 2,000 best without sorting them all.

/**
 * Indices of the `m` largest of `scores[0 .. count)`, best first (ties: the earlier index).
 * With `among`, score k belongs to row `among[k]` and rows are returned.
 */
export function topIndices(
  scores: ArrayLike<number>,
  m: number,
  count = scores.length,
  among?: ArrayLike<number>,
): Uint32Array {
  m = Math.max(0, Math.min(m, count));
  const hs = new Float64Array(m);
  const hi = new Uint32Array(m);
  let size = 0;
  // The heap's root is its worst: lowest score, and of equal scores the latest index.
  const worse = (a: number, b: number) => hs[a]! < hs[b]! || (hs[a] === hs[b] && hi[a]! > hi[b]!);
  const swap = (a: number, b: number) => {
    const s = hs[a]!,
      i = hi[a]!;
    hs[a] = hs[b]!;
    hi[a] = hi[b]!;
    hs[b] = s;
    hi[b] = i;
  };
  for (let k = 0; k < count; k++) {
    const s = scores[k]!;
    if (size < m) {
      hs[size] = s;
      hi[size] = k;
      for (let i = size++; i > 0; ) {
        const p = (i - 1) >> 1;
        if (!worse(i, p)) break;
        swap(i, p);
        i = p;
      }
    } else if (m > 0 && s > hs[0]!) {
      hs[0] = s;
      hi[0] = k;
      for (let i = 0; ; ) {
        const l = 2 * i + 1,
          r = l + 1;
        let w = i;
        if (l < size && worse(l, w)) w = l;
        if (r < size && worse(r, w)) w = r;
        if (w === i) break;
        swap(i, w);
        i = w;
      }
    }
  }
  const order = Array.from({ length: size }, (_, i) => i).sort((a, b) => hs[b]! - hs[a]! || hi[a]! - hi[b]!);
  return Uint32Array.from(order, (i) => (among ? among[hi[i]!]! : hi[i]!));
}
