// The sharded static corpus over loopback HTTP with 50 ms added to every request (to stand
// for the internet): bytes and requests at start-up and per question, time to the first
// passages (p50/p95, all rounds, texts included), and recall@10 of the dense ranking
// against exact search over the same vectors, for a sweep of top blocks read (ntop) × lists
// probed (nprobe), first at the depth the writer chose and wrote in the manifest; with BENCH_SHARDED_SWEEPS=1 also sweeps of how many candidates' int8 rows
// are fetched and rescored (rescore) and of the row gap sharing one range.
// BENCH_SHARDED_SIZES (default 100000) passages of embedding-like 384-d vectors
// (bench/scale/vectors.ts) with synthetic Zipf text (bench/scale/text.ts), streamed from their
// seeds (bench/scale/sharded-source.ts), never held whole. Each build runs in its own process
// (bench/scale/sharded-build.ts) so its peak RSS is the writer's: BENCH_SHARDED_BUILDS lists
// them (default 'auto'; 'flat', 'hier', 'hier:P' (P tops a passage is compared among), 'given',
// 'given-lists'), the first being the baseline of the build ratios. Exact top-10 of the
// questions comes from one streaming pass. BENCH_SHARDED_GRID ('16x24,32x24x100': ntop x
// nprobe [x rescore]), BENCH_SHARDED_RESCORE, BENCH_SHARDED_GAP, BENCH_DELAY_MS and
// BENCH_QUERIES override the defaults.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { MemoryBlockCache, type BlockCache } from '../src/library/sharded/block-cache';
import { DEFAULT_GAP, DEFAULT_NTOP, DEFAULT_RESCORE, ShardedCorpus } from '../src/library/sharded/reader';
import type { WriteShardedResult } from '../scripts/sharded/write-sharded';
import { syntheticQueries, syntheticSource } from './scale/sharded-source';
import { serveDir } from '../test/browser/harness';

const K = 10;
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 50);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 40);
const RESCORE = Number(process.env.BENCH_SHARDED_RESCORE ?? DEFAULT_RESCORE);
const GAP = Number(process.env.BENCH_SHARDED_GAP ?? DEFAULT_GAP);

class ClearableCache implements BlockCache {
  inner = new MemoryBlockCache();
  get(k: string) {
    return this.inner.get(k);
  }
  put(k: string, b: Uint8Array) {
    return this.inner.put(k, b);
  }
  clear() {
    this.inner = new MemoryBlockCache();
  }
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN;
const kb = (b: number) => `${(b / 1024).toFixed(0)} kB`;

interface Built extends WriteShardedResult {
  buildSeconds: number;
  jobSeconds: number;
  rssBefore: number;
  maxRss: number;
}

function build(n: number, out: string, spec: string): Built {
  const [mode, p] = spec.split(':') as [string, string | undefined];
  const script = fileURLToPath(new URL('./scale/sharded-build.ts', import.meta.url));
  const json = execFileSync(
    process.execPath,
    ['--import', 'tsx', script, JSON.stringify({ n, out, mode, ...(p ? { assignTops: Number(p) } : {}) })],
    { stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 24 },
  );
  return JSON.parse(json.toString().trim().split('\n').pop()!) as Built;
}

/** Exact top-K of each question, and the text of its nearest passage, in one streaming pass. */
async function exact(n: number, qs: Float32Array[]): Promise<Array<{ truth: Set<string>; near: string }>> {
  const best = qs.map(() => [] as Array<{ id: string; s: number }>);
  const near = qs.map(() => ({ s: -Infinity, text: '' }));
  for await (const r of syntheticSource(n).rows()) {
    const v = r.embedding;
    let norm = 0;
    for (let j = 0; j < v.length; j++) norm += v[j]! * v[j]!;
    const inv = 1 / Math.sqrt(norm);
    qs.forEach((q, i) => {
      let s = 0;
      for (let j = 0; j < v.length; j++) s += q[j]! * v[j]!;
      s *= inv;
      const b = best[i]!;
      if (b.length < K || s > b[b.length - 1]!.s) {
        b.push({ id: r.id, s });
        b.sort((x, y) => y.s - x.s);
        if (b.length > K) b.pop();
      }
      if (s > near[i]!.s) near[i] = { s, text: r.text };
    });
  }
  return best.map((b, i) => ({ truth: new Set(b.map((h) => h.id)), near: near[i]!.text }));
}

const mb = (b: number) => `${(b / 2 ** 20).toFixed(0)} MB`;

export async function run(): Promise<void> {
  const sizes = (process.env.BENCH_SHARDED_SIZES ?? '100000')
    .split(',')
    .map(Number)
    .filter((x) => x > 0);
  const builds = (process.env.BENCH_SHARDED_BUILDS ?? 'auto').split(',');
  for (const n of sizes) {
    const root = mkdtempSync(join(tmpdir(), 'sharded-bench-'));
    try {
      const built: Array<{ spec: string; res: Built }> = [];
      for (const spec of builds) {
        const out = join(root, spec.replace(':', '-'), 'site/sub/corpus');
        const res = build(n, out, spec);
        built.push({ spec, res });
        const total = Object.values(res.bytes).reduce((a, b) => a + b, 0);
        console.log(
          `\n${n} passages, build '${spec}' (${res.coarse}, ${res.sampleRows} sample rows): ${res.buildSeconds.toFixed(0)} s${res.jobSeconds ? ` (+ ${res.jobSeconds.toFixed(0)} s of the job's k-means)` : ''} [pass 1 ${res.seconds.sample.toFixed(0)}, train ${res.seconds.train.toFixed(0)}, assign ${res.seconds.assign.toFixed(0)}, lists ${res.seconds.lists.toFixed(0)}, words ${res.seconds.words.toFixed(0)}, calibrate ${res.seconds.calibrate.toFixed(0)}]; peak RSS ${mb(res.maxRss)} (process at start ${mb(res.rssBefore)}; peak after pass 1 / train / assign / lists / words: ${Object.values(
            res.peakRss,
          )
            .map((b) => (b / 2 ** 20).toFixed(0))
            .join(
              ' / ',
            )} MB); ${res.tops} tops, ${res.lists} lists, ${res.wordShards} word shards in ${res.wordBuckets} buckets (largest ${mb(res.largestBucket)}); files: ${Object.entries(
            res.bytes,
          )
            .map(([f, b]) => `${f} ${kb(b)}`)
            .join(', ')} (total ${(total / 1e6).toFixed(1)} MB)`,
        );
      }
      const base = built[0]!.res;
      if (built.length > 1) {
        console.log(
          `\nbuilds against '${built[0]!.spec}' (same run): ${built
            .slice(1)
            .map(
              ({ spec, res }) =>
                `'${spec}' time × ${(res.buildSeconds / base.buildSeconds).toFixed(2)}, peak RSS × ${(res.maxRss / base.maxRss).toFixed(2)}`,
            )
            .join('; ')}`,
        );
      }
      const qs = syntheticQueries(QUERIES);
      let t = performance.now();
      const truths = await exact(n, qs);
      console.log(
        `exact top-${K} of ${QUERIES} questions: one streaming pass, ${((performance.now() - t) / 1000).toFixed(0)} s`,
      );
      // The question text: five words of the passage nearest the query (a question about it).
      const questions = qs.map((vector, i) => ({
        vector,
        text: truths[i]!.near.split(' ').slice(3, 8).join(' '),
        truth: truths[i]!.truth,
      }));

      for (const { spec } of built) {
        // The tests' static host (byte ranges answered 206), each answer held back as a distant host's would be.
        const served = await serveDir(join(root, spec.replace(':', '-')), { delayMs: DELAY_MS });
        const url = `${served.url}site/sub/corpus/`;
        try {
          const cache = new ClearableCache();
          // Body bytes per file, to show where a question's bytes go.
          const perFile = new Map<string, number>();
          let counting = false;
          const counted: typeof fetch = async (input, init) => {
            const res = await fetch(input, init);
            if (!counting) return res;
            const file = String(input).split('/').pop()!;
            perFile.set(file, (perFile.get(file) ?? 0) + Number(res.headers.get('content-length') ?? 0));
            return res;
          };
          t = performance.now();
          const corpus = await ShardedCorpus.open(url, { fetch: counted, cache });
          const openMs = performance.now() - t;
          console.log(
            `\n'${spec}': start-up: ${corpus.startup.requests} requests, ${kb(corpus.startup.bytes)}, ${openMs.toFixed(0)} ms`,
          );
          const p = corpus.manifest.probe;
          if (p)
            console.log(
              `the writer's probe depth (calibrated on ${p.queries} of its own passages, target recall@10 ${p.target}): ${p.ntop} tops × ${p.nprobe} lists, rescoring ${p.rescore}; its recall there ${p.recall} (95 % lower bound ${p.lower})`,
            );
          const sweep = async (nprobe: number, rescore: number, gap = GAP, ntop = DEFAULT_NTOP) => {
            const times: number[] = [];
            const bytes: number[] = [];
            const reqs: number[] = [];
            let hits = 0;
            let again = 0;
            perFile.clear();
            for (const q of questions) {
              cache.clear();
              t = performance.now();
              counting = true;
              const a = await corpus.search({
                vector: q.vector,
                text: q.text,
                k: K,
                nprobe,
                ntop,
                rescore,
                gap,
                mode: 'both',
              });
              counting = false;
              times.push(performance.now() - t);
              bytes.push(a.stats.bytes);
              reqs.push(a.stats.requests);
              if (a.problems.length) throw new Error(a.problems.join('; '));
              again += (
                await corpus.search({ vector: q.vector, text: q.text, k: K, nprobe, ntop, rescore, gap, mode: 'both' })
              ).stats.requests;
              const dense = await corpus.search({
                vector: q.vector,
                text: q.text,
                k: K,
                nprobe,
                ntop,
                rescore,
                gap,
                mode: 'meaning',
              });
              for (const h of dense.hits) if (q.truth.has(h.passage.id)) hits++;
            }
            const part = (f: string) => `${((perFile.get(f) ?? 0) / questions.length / 1024).toFixed(0)}`;
            return {
              row: `${(reqs.reduce((a, b) => a + b, 0) / reqs.length).toFixed(1)} | ${kb(pct(bytes, 0.5))} | ${kb(pct(bytes, 0.95))} | ${part('centroids.bin')} / ${part('lists.bin')} / ${part('rows.bin')} / ${part('wordtable.bin')} / ${part('words.bin')} / ${part('texts.bin')} | ${pct(times, 0.5).toFixed(0)} | ${pct(times, 0.95).toFixed(0)} | ${(hits / (K * QUERIES)).toFixed(3)} | ${again}`,
            };
          };
          console.log(
            `\nper question, cold cache, ${DELAY_MS} ms per request, mode 'both' (dense + words, texts of the top ${K}), rows ≤ ${GAP} apart in one range; first the depth the manifest names (what a page reads), then a grid at rescore ${RESCORE}; recall@10 of the dense ranking ('meaning') against exact search:\n`,
          );
          console.log(
            '| build | ntop | nprobe | rescore | requests / question | bytes / question p50 | p95 | mean kB centroids / lists / rows / word table / words / texts | time to passages p50 ms | p95 ms | recall@10 (dense) | second ask: requests |',
          );
          console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
          const d = corpus.depth;
          console.log(
            `| ${spec}, ${p ? 'manifest' : 'defaults'} | ${d.ntop} | ${d.nprobe} | ${d.rescore} | ${(await sweep(d.nprobe, d.rescore, GAP, d.ntop)).row} |`,
          );
          // ntop x nprobe, or ntop x nprobe x rescore.
          const grid = (process.env.BENCH_SHARDED_GRID ?? '8x16,16x16,16x24,32x24')
            .split(',')
            .map((g) => g.split('x').map(Number) as [number, number, number?]);
          for (const [ntop, nprobe, rescore = RESCORE] of grid)
            console.log(
              `| ${spec} | ${ntop} | ${nprobe} | ${rescore} | ${(await sweep(nprobe, rescore, GAP, ntop)).row} |`,
            );
          if (process.env.BENCH_SHARDED_SWEEPS) {
            console.log(
              `\nrows rescored (candidates whose int8 rows are fetched), ntop ${DEFAULT_NTOP}, same measures:\n`,
            );
            console.log(
              '| nprobe | rescore | requests / question | bytes / question p50 | p95 | mean kB centroids / lists / rows / word table / words / texts | time to passages p50 ms | p95 ms | recall@10 (dense) | second ask: requests |',
            );
            console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
            for (const nprobe of [8, 16])
              for (const rescore of [50, 100, 200])
                console.log(`| ${nprobe} | ${rescore} | ${(await sweep(nprobe, rescore)).row} |`);
            console.log(`\nrows apart that still share one range request (gap), rescore ${RESCORE}, same measures:\n`);
            console.log(
              '| nprobe | gap | requests / question | bytes / question p50 | p95 | mean kB centroids / lists / rows / word table / words / texts | time to passages p50 ms | p95 ms | recall@10 (dense) | second ask: requests |',
            );
            console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
            for (const gap of [0, 4, 16]) console.log(`| 16 | ${gap} | ${(await sweep(16, RESCORE, gap)).row} |`);
          }
        } finally {
          await served.close();
        }
        // Disk: each build is a few GB at 1M; drop it once measured.
        rmSync(join(root, spec.replace(':', '-')), { recursive: true, force: true });
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
}
