// One sharded build in its own process, so its peak RSS is the writer's alone (plus this
// small script): `tsx bench/scale/sharded-build.ts '<json>'` with n, out, mode ('auto',
// 'flat', 'hier', 'given', 'given-lists') and assignTops; prints one JSON line.
// 'given' stands for centroids computed by the embedding job (faiss k-means on a sample,
// here the same spherical k-means, flat, 32 rows a list up to 50,000) and passed in;
// 'given-lists' also files each passage by the exact nearest centroid in the source (what
// faiss's quantizer.search does in the job's map step), so the writer assigns nothing.
import { sphericalKMeans } from '../../src/vector/kmeans';
import { ListAssigner } from '../../scripts/sharded/coarse';
import { LIST_SIZE, writeSharded } from '../../scripts/sharded/write-sharded';
import { DIM, syntheticSource } from './sharded-source';

const args = JSON.parse(process.argv[2]!) as { n: number; out: string; mode: string; assignTops?: number };
const rssBefore = process.memoryUsage().rss;
const t0 = performance.now();
let source = syntheticSource(args.n);
let centroids: Float32Array | undefined;
let jobSeconds = 0;
if (args.mode.startsWith('given')) {
  const lists = Math.round(args.n / LIST_SIZE);
  const take = Math.min(50000, 32 * lists);
  const sample = new Float32Array(take * DIM);
  let i = 0;
  const stride = args.n / take;
  for await (const r of source.rows()) {
    if (i < take && r.id === `p${Math.floor(i * stride)}`) sample.set(r.embedding, i++ * DIM);
  }
  centroids = sphericalKMeans(sample, DIM, lists, 6).centroids;
  if (args.mode === 'given-lists') {
    const nearest = new ListAssigner({ dim: DIM, tops: centroids.subarray(0, DIM), subs: [centroids] }, 'all');
    source = syntheticSource(args.n, (v) => nearest.nearest(v));
  }
  jobSeconds = (performance.now() - t0) / 1000;
}
const t1 = performance.now();
const res = await writeSharded({
  out: args.out,
  model: 'Xenova/all-MiniLM-L6-v2',
  source,
  ...(centroids ? { centroids: { vectors: centroids, dim: DIM, source: 'the job' } } : {}),
  ...(args.mode === 'flat' ? { flat: true } : args.mode === 'hier' ? { flat: false } : {}),
  ...(args.assignTops ? { assignTops: args.assignTops } : {}),
  log: (l) => console.error(`  ${l}`),
});
const buildSeconds = (performance.now() - t1) / 1000;
console.log(
  JSON.stringify({ ...res, buildSeconds, jobSeconds, rssBefore, maxRss: process.resourceUsage().maxRSS * 1024 }),
);
