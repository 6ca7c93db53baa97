// The sharded static corpus over loopback HTTP with 50 ms added to every request (to stand
// for the internet): bytes and requests at start-up and per question, time to the first
// passages (p50/p95, all rounds, texts included), and recall@10 of the dense ranking
// against exact search over the same vectors, for a sweep of top blocks read (ntop) × lists
// probed (nprobe); with BENCH_SHARDED_SWEEPS=1 also sweeps of how many candidates' int8 rows
// are fetched and rescored (rescore) and of the row gap sharing one range.
// BENCH_SHARDED_SIZES (default 100000) passages of embedding-like 384-d vectors
// (bench/scale/vectors.ts) with synthetic Zipf text (bench/scale/text.ts). BENCH_SHARDED_LISTS,
// BENCH_SHARDED_TOPS, BENCH_SHARDED_RESCORE, BENCH_SHARDED_GAP and BENCH_QUERIES override the defaults.
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FlatIndex } from '../src/core/flat-index';
import { MemoryBlockCache, type BlockCache } from '../src/library/sharded/block-cache';
import { DEFAULT_GAP, DEFAULT_NTOP, DEFAULT_RESCORE, ShardedCorpus } from '../src/library/sharded/reader';
import { writeSharded, type ShardedRow } from '../scripts/sharded/write-sharded';
import { passageTexts, vocabulary } from './scale/text';
import { embeddingModel, embeddingVectors } from './scale/vectors';

const DIM = 384;
const K = 10;
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 50);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 40);
const RESCORE = Number(process.env.BENCH_SHARDED_RESCORE ?? DEFAULT_RESCORE);
const GAP = Number(process.env.BENCH_SHARDED_GAP ?? DEFAULT_GAP);

/** A static file server that honours single byte ranges, after a fixed delay per request. */
function serve(root: string): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    setTimeout(() => {
      const path = join(root, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
      let size: number;
      try {
        size = statSync(path).size;
      } catch {
        res.writeHead(404).end();
        return;
      }
      const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
      if (m) {
        const start = Number(m[1]), end = Math.min(Number(m[2]), size - 1);
        res.writeHead(206, { 'content-length': end - start + 1, 'content-range': `bytes ${start}-${end}/${size}`, 'accept-ranges': 'bytes' });
        createReadStream(path, { start, end }).pipe(res);
      } else {
        res.writeHead(200, { 'content-length': size, 'accept-ranges': 'bytes' });
        createReadStream(path).pipe(res);
      }
    }, DELAY_MS);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const addr = server.address() as { port: number };
    resolve({ server, base: `http://127.0.0.1:${addr.port}/site/sub/corpus/` });
  }));
}

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

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN;
const kb = (b: number) => `${(b / 1024).toFixed(0)} kB`;

export async function run(): Promise<void> {
  const sizes = (process.env.BENCH_SHARDED_SIZES ?? '100000').split(',').map(Number).filter((x) => x > 0);
  for (const n of sizes) {
    const root = mkdtempSync(join(tmpdir(), 'sharded-bench-'));
    const out = join(root, 'site/sub/corpus');
    try {
      const model = embeddingModel(DIM, 1);
      const vs = embeddingVectors(model, n, DIM);
      const vocab = vocabulary(40000, 1);
      const texts: string[] = [];
      const next = passageTexts(n, 11, vocab);
      for (let i = 0; i < n; i++) texts.push(next());
      const rows = async function* (): AsyncGenerator<ShardedRow> {
        for (let i = 0; i < n; i++) yield { id: `p${i}`, docId: `d${Math.floor(i / 10)}`, title: `Document ${Math.floor(i / 10)}`, text: texts[i]!, index: i % 10, embedding: vs.row(i) };
      };
      let t = performance.now();
      const lists = Number(process.env.BENCH_SHARDED_LISTS ?? 0);
      const tops = Number(process.env.BENCH_SHARDED_TOPS ?? 0);
      const res = await writeSharded({ out, model: 'Xenova/all-MiniLM-L6-v2', source: { rows }, ...(lists ? { lists } : {}), ...(tops ? { tops } : {}), log: (l) => console.log(`  ${l}`) });
      const buildS = (performance.now() - t) / 1000;
      const total = Object.values(res.bytes).reduce((a, b) => a + b, 0);
      console.log(`\n${n} passages: built in ${buildS.toFixed(0)} s; ${res.tops} top centroids, ${res.lists} lists, ${res.wordShards} word shards; files: ${Object.entries(res.bytes).map(([f, b]) => `${f} ${kb(b)}`).join(', ')} (total ${(total / 1e6).toFixed(1)} MB)`);

      const flat = new FlatIndex(DIM);
      flat.add(Array.from({ length: n }, (_, i) => `p${i}`), Array.from({ length: n }, (_, i) => vs.row(i)));
      const qs = embeddingVectors(model, QUERIES, DIM);
      // The question text: five words of the passage nearest the query (a question about it).
      const questions = Array.from({ length: QUERIES }, (_, i) => {
        const near = flat.search(qs.row(i), 1)[0]!.id;
        return { vector: qs.row(i), text: texts[Number(near.slice(1))]!.split(' ').slice(3, 8).join(' '), truth: new Set(flat.search(qs.row(i), K).map((h) => h.id)) };
      });

      const { server, base } = await serve(root);
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
        const corpus = await ShardedCorpus.open(base, { fetch: counted, cache });
        const openMs = performance.now() - t;
        console.log(`start-up: ${corpus.startup.requests} requests, ${kb(corpus.startup.bytes)}, ${openMs.toFixed(0)} ms (manifest ${(res.bytes['manifest.json']! / 1024).toFixed(1)} kB, index.bin ${kb(res.bytes['index.bin']!)})`);
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
            const a = await corpus.search({ vector: q.vector, text: q.text, k: K, nprobe, ntop, rescore, gap, mode: 'both' });
            counting = false;
            times.push(performance.now() - t);
            bytes.push(a.stats.bytes);
            reqs.push(a.stats.requests);
            if (a.problems.length) throw new Error(a.problems.join('; '));
            again += (await corpus.search({ vector: q.vector, text: q.text, k: K, nprobe, ntop, rescore, gap, mode: 'both' })).stats.requests;
            const dense = await corpus.search({ vector: q.vector, text: q.text, k: K, nprobe, ntop, rescore, gap, mode: 'meaning' });
            for (const h of dense.hits) if (q.truth.has(h.passage.id)) hits++;
          }
          const part = (f: string) => `${((perFile.get(f) ?? 0) / questions.length / 1024).toFixed(0)}`;
          return {
            row: `${(reqs.reduce((a, b) => a + b, 0) / reqs.length).toFixed(1)} | ${kb(pct(bytes, 0.5))} | ${kb(pct(bytes, 0.95))} | ${part('centroids.bin')} / ${part('lists.bin')} / ${part('rows.bin')} / ${part('wordtable.bin')} / ${part('words.bin')} / ${part('texts.bin')} | ${pct(times, 0.5).toFixed(0)} | ${pct(times, 0.95).toFixed(0)} | ${(hits / (K * QUERIES)).toFixed(3)} | ${again}`,
          };
        };
        console.log(`\nper question, cold cache, ${DELAY_MS} ms per request, mode 'both' (dense + words, texts of the top ${K}), rows of the best ${RESCORE} candidates rescored (rows ≤ ${GAP} apart in one range); recall@10 of the dense ranking ('meaning') against exact search:\n`);
        console.log('| ntop | nprobe | requests / question | bytes / question p50 | p95 | mean kB centroids / lists / rows / word table / words / texts | time to passages p50 ms | p95 ms | recall@10 (dense) | second ask: requests |');
        console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
        const grid = (process.env.BENCH_SHARDED_GRID ?? '1x8,2x8,4x8,2x16,4x16,8x16,4x32,8x32').split(',').map((g) => g.split('x').map(Number) as [number, number]);
        for (const [ntop, nprobe] of grid) console.log(`| ${ntop} | ${nprobe} | ${(await sweep(nprobe, RESCORE, GAP, ntop)).row} |`);
        if (process.env.BENCH_SHARDED_SWEEPS) {
          console.log(`\nrows rescored (candidates whose int8 rows are fetched), ntop ${DEFAULT_NTOP}, same measures:\n`);
          console.log('| nprobe | rescore | requests / question | bytes / question p50 | p95 | mean kB centroids / lists / rows / word table / words / texts | time to passages p50 ms | p95 ms | recall@10 (dense) | second ask: requests |');
          console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
          for (const nprobe of [8, 16]) for (const rescore of [50, 100, 200]) console.log(`| ${nprobe} | ${rescore} | ${(await sweep(nprobe, rescore)).row} |`);
          console.log(`\nrows apart that still share one range request (gap), rescore ${RESCORE}, same measures:\n`);
          console.log('| nprobe | gap | requests / question | bytes / question p50 | p95 | mean kB centroids / lists / rows / word table / words / texts | time to passages p50 ms | p95 ms | recall@10 (dense) | second ask: requests |');
          console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
          for (const gap of [0, 4, 16]) console.log(`| 16 | ${gap} | ${(await sweep(16, RESCORE, gap)).row} |`);
        }
      } finally {
        server.close();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
}
