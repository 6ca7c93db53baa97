import { FlatIndex } from '../../src/core/flat-index';
import { CompactIndex } from '../../src/core/compact-index';
import { embeddingModel, embeddingVectors, uniformVectors, describe } from '../../bench/scale/vectors';
const n = Number(process.argv[2] ?? 100000), dim = 384;
for (const kind of ['emb', 'uni']) {
  let t = performance.now();
  const model = embeddingModel(dim, 1);
  const vs = kind === 'emb' ? embeddingVectors(model, n, dim) : uniformVectors(n, dim, 1);
  const qs = kind === 'emb' ? embeddingVectors(model, 50, dim) : uniformVectors(50, dim, 2);
  console.log(kind, 'gen', (performance.now() - t).toFixed(0), JSON.stringify(describe(vs, 20)));
  const ids = Array.from({ length: n }, (_, i) => String(i));
  const rows = ids.map((_, i) => vs.row(i));
  const flat = new FlatIndex(dim); flat.add(ids, rows);
  const truth = Array.from({ length: qs.n }, (_, i) => new Set(flat.search(qs.row(i), 10).map((h) => h.id)));
  for (const [c, rr] of [[1000, 50], [2000, 100], [4000, 100], [4000, 200], [8000, 200]]) {
    t = performance.now();
    const ci = new CompactIndex(dim, { candidates: c, rescore: rr }); ci.add(ids, rows);
    const build = performance.now() - t;
    let hit = 0; const times: number[] = [];
    for (let i = 0; i < qs.n; i++) { const t0 = performance.now(); const res = ci.search(qs.row(i), 10); times.push(performance.now() - t0); for (const h of res) if (truth[i]!.has(h.id)) hit++; }
    times.sort((a, b) => a - b);
    console.log(kind, c, rr, 'build', build.toFixed(0), 'p50', times[25]!.toFixed(2), 'recall', (hit / qs.n / 10).toFixed(3));
  }
  const times: number[] = [];
  for (let i = 0; i < qs.n; i++) { const t0 = performance.now(); flat.search(qs.row(i), 10); times.push(performance.now() - t0); }
  times.sort((a, b) => a - b); console.log('flat p50', times[25]!.toFixed(2));
}
