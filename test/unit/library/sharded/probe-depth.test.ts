// The probe depth a sharded corpus is read at: the writer measures it on its own passages
// (replaying the reader's routing and ranking) and writes it in the manifest; the reader
// reads that deep unless a question says otherwise, and its recall on new questions is what
// the writer predicted.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUEST_COST } from '../../../../scripts/sharded/calibrate';
import {
  writeSharded,
  type ShardedRow,
  type ShardedSource,
  type WriteShardedResult,
} from '../../../../scripts/sharded/write-sharded';
import { mulberry32 } from '../../../../src/core/mulberry32';
import { checkManifest, type ShardedManifest } from '../../../../src/library/sharded/format/manifest';
import { DEFAULT_NPROBE, DEFAULT_NTOP, DEFAULT_RESCORE, ShardedCorpus } from '../../../../src/library/sharded/reader';
import { rangeFetch, type RangeFetch } from '../../../doubles/range-fetch';

const DIM = 64;
const N = 6000;
const CLUSTERS = 60;
const BASE = 'https://docs.example/corpus/';

/** Clustered, anisotropic unit vectors, as sentence embeddings are: a cluster centre plus noise that is wider along a few directions. */
function clustered(seed: number) {
  const rand = mulberry32(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const centreRand = mulberry32(7);
  const cg = () => Math.sqrt(-2 * Math.log(1 - centreRand())) * Math.cos(2 * Math.PI * centreRand());
  const centres = Array.from({ length: CLUSTERS }, () => Float32Array.from({ length: DIM }, cg));
  const scale = Float32Array.from({ length: DIM }, (_, j) => 0.9 / (1 + j / 8));
  return () => {
    const c = centres[Math.floor(rand() * CLUSTERS)]!;
    const v = Float32Array.from({ length: DIM }, (_, j) => c[j]! + 1.6 * scale[j]! * gauss() * Math.sqrt(DIM / 8));
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  };
}

function source(): ShardedSource {
  return {
    rowCount: N,
    async *rows(): AsyncGenerator<ShardedRow> {
      const draw = clustered(1);
      for (let i = 0; i < N; i++)
        yield {
          id: `p${i}`,
          docId: `d${Math.floor(i / 10)}`,
          title: `Document ${Math.floor(i / 10)}`,
          text: `passage ${i} of document ${Math.floor(i / 10)}`,
          index: i % 10,
          embedding: draw(),
        };
    },
  };
}

/** Top blocks a question fetched: those lying inside a range it asked of centroids.bin (blocks end to end share a request). */
function blocksRead(requests: RangeFetch['requests'], corpus: ShardedCorpus): number {
  const ranges = requests
    .filter((x) => x.url.endsWith('centroids.bin') && x.range)
    .map((x) => /bytes=(\d+)-(\d+)/.exec(x.range!)!.slice(1).map(Number) as [number, number]);
  const { offset, bytes } = corpus.index.tops;
  return Array.from(offset).filter((o, t) => ranges.some(([a, b]) => o >= a && o + bytes[t]! - 1 <= b)).length;
}

/** Exact recall@10 of the corpus read at its manifest's depth, for fresh questions from the same clusters. */
async function measuredRecall(
  out: string,
  questions: Float32Array[],
  rows: Float32Array[],
): Promise<{ recall: number; centroidBlocks: number }> {
  const host = rangeFetch(out, BASE);
  let hit = 0;
  let blocks = 0;
  for (const q of questions) {
    const truth = new Set(
      rows
        .map((v, i) => [v.reduce((s, x, j) => s + x * q[j]!, 0), i] as const)
        .sort((a, b) => b[0] - a[0])
        .slice(0, 10)
        .map(([, i]) => `p${i}`),
    );
    // A fresh page each time, so no block comes from the cache.
    const corpus = await ShardedCorpus.open(BASE, { fetch: host.fetch });
    const before = host.requests.length;
    const r = await corpus.search({ vector: q, text: '', k: 10, mode: 'meaning' });
    blocks += blocksRead(host.requests.slice(before), corpus);
    hit += r.hits.filter((h) => truth.has(h.passage.id)).length;
  }
  return { recall: hit / (10 * questions.length), centroidBlocks: blocks / questions.length };
}

describe('the probe depth a sharded corpus is read at', () => {
  let dir: string;
  let rows: Float32Array[];
  let questions: Float32Array[];
  const built: Record<string, { out: string; res: WriteShardedResult; manifest: ShardedManifest }> = {};

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'probe-depth-'));
    rows = [];
    for await (const r of source().rows()) rows.push(r.embedding);
    const draw = clustered(99);
    questions = Array.from({ length: 60 }, draw);
    for (const [name, targetRecall] of [
      ['low', 0.6],
      ['high', 0.95],
    ] as const) {
      const out = join(dir, name);
      const res = await writeSharded({ out, source: source(), model: 'test', targetRecall });
      built[name] = { out, res, manifest: JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) };
    }
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is measured by the writer on its own passages and written in the manifest', () => {
    const { res, manifest } = built.high!;
    expect(manifest.probe).toBeDefined();
    const p = manifest.probe!;
    expect(p.ntop).toBeLessThanOrEqual(res.tops);
    expect(p.nprobe).toBeLessThanOrEqual(res.lists);
    expect(p.queries).toBe(200);
    expect(p.target).toBe(0.95);
    expect(res.calibration!.tried.length).toBeGreaterThan(10);
    // The depth chosen is the cheapest of those tried whose recall reached the target with a
    // margin for the sample: its lower confidence bound, below its mean.
    const reaching = res.calibration!.tried.filter((t) => t.lower >= 0.95);
    expect(reaching.length).toBeGreaterThan(0);
    expect(p.lower).toBeGreaterThanOrEqual(0.95);
    expect(p.recall).toBeGreaterThan(p.lower);
    const chosen = res.calibration!.tried.find(
      (t) => t.ntop === p.ntop && t.nprobe === p.nprobe && t.rescore === p.rescore,
    )!;
    expect(chosen.cost).toBe(Math.min(...reaching.map((t) => t.cost)));
    // A request costs its headers beside its body: bytes alone do not choose. Blocks and lists
    // that lie end to end share a request, so there are at most as many as blocks and lists read.
    expect(chosen.cost).toBe(chosen.vectorBytes + REQUEST_COST * chosen.blockRequests);
    expect(chosen.blockRequests).toBeGreaterThan(1);
    expect(chosen.blockRequests).toBeLessThanOrEqual(Math.min(p.ntop, res.tops) + p.nprobe);
    expect(res.calibration!.vectorBytes).toBeGreaterThan(built.low!.res.calibration!.vectorBytes);
  });

  it('is what the reader reads, and its recall on new questions is what the writer predicted', async () => {
    for (const name of ['low', 'high'] as const) {
      const { out, manifest } = built[name]!;
      const { recall, centroidBlocks } = await measuredRecall(out, questions, rows);
      expect(centroidBlocks).toBe(manifest.probe!.ntop);
      if (name === 'high') {
        // 100 held-out passages against 60 fresh questions: within a few hundredths where recall is high.
        expect(Math.abs(recall - manifest.probe!.recall)).toBeLessThan(0.05);
        expect(recall).toBeGreaterThanOrEqual(0.93);
      } else expect(recall).toBeLessThan(0.85);
    }
  });

  it('the lists a question probes lie together in lists.bin, so they come in fewer requests than lists', async () => {
    const { out } = built.high!;
    const host = rangeFetch(out, BASE);
    let requests = 0;
    for (const q of questions.slice(0, 20)) {
      // A first visit each time: nothing cached.
      const corpus = await ShardedCorpus.open(BASE, { fetch: host.fetch });
      const before = host.requests.length;
      await corpus.search({ vector: q, text: '', k: 10, mode: 'meaning', nprobe: 16, ntop: 8 });
      requests += host.requests.slice(before).filter((r) => r.url.endsWith('lists.bin')).length;
    }
    // 16 lists a question from the 8 nearest tops' blocks: 6.4 requests on average here, 7.8
    // with each top's lists in the order the k-means left them.
    expect(requests / 20).toBeLessThan(7);
  });

  it('a question can still ask for its own depth', async () => {
    const { out } = built.low!;
    const host = rangeFetch(out, BASE);
    const corpus = await ShardedCorpus.open(BASE, { fetch: host.fetch });
    const before = host.requests.length;
    await corpus.search({ vector: questions[0]!, text: '', k: 10, mode: 'meaning', ntop: 3 });
    expect(blocksRead(host.requests.slice(before), corpus)).toBe(3);
    // Every top: the blocks lie end to end in centroids.bin, so one range request brings them all.
    const all = await ShardedCorpus.open(BASE, { fetch: host.fetch });
    const from = host.requests.length;
    const r = await all.search({
      vector: questions[1]!,
      text: '',
      k: 10,
      mode: 'meaning',
      ntop: all.index.tops.subs.length,
    });
    expect(r.problems).toEqual([]);
    expect(host.requests.slice(from).filter((x) => x.url.endsWith('centroids.bin'))).toHaveLength(1);
    expect(blocksRead(host.requests.slice(from), all)).toBe(all.index.tops.subs.length);
  });

  it('a corpus built without calibration, or with a depth that is not whole numbers in range, is read at the defaults', async () => {
    const out = join(dir, 'none');
    const res = await writeSharded({ out, source: source(), model: 'test', calibrate: 0 });
    expect(res.calibration).toBeNull();
    const host = rangeFetch(out, BASE);
    const plain = await ShardedCorpus.open(BASE, { fetch: host.fetch });
    expect(plain.manifest.probe).toBeUndefined();
    expect(plain.depth).toEqual({ ntop: DEFAULT_NTOP, nprobe: DEFAULT_NPROBE, rescore: DEFAULT_RESCORE });

    const m = JSON.parse(readFileSync(join(built.high!.out, 'manifest.json'), 'utf8'));
    for (const probe of [
      { ...m.probe, ntop: 0 },
      { ...m.probe, ntop: m.centroids.tops + 1 },
      { ...m.probe, nprobe: 2.5 },
      { ...m.probe, rescore: '100' },
      'deep',
    ]) {
      expect(checkManifest({ ...m, probe }).probe).toBeUndefined();
    }
    expect(checkManifest({ ...m }).probe).toEqual(m.probe);
    // A hostile manifest's depth is dropped and the corpus still answers.
    writeFileSync(join(built.high!.out, 'manifest.json'), JSON.stringify({ ...m, probe: { ...m.probe, ntop: 1e9 } }));
    const corpus = await ShardedCorpus.open(BASE, { fetch: rangeFetch(built.high!.out, BASE).fetch });
    expect(corpus.depth.ntop).toBe(DEFAULT_NTOP);
    expect((await corpus.search({ vector: questions[0]!, text: '', k: 10, mode: 'meaning' })).hits).toHaveLength(10);
    writeFileSync(join(built.high!.out, 'manifest.json'), JSON.stringify(m));
  });
});

describe('the probe depth, measured on questions the site gives (--questions)', () => {
  let dir: string;
  let rows: Float32Array[];
  /** Questions between two topics, as short questions sit between documents: far from any one list. */
  const between = (seed: number, n: number) => {
    const a = clustered(seed);
    const b = clustered(seed + 1000);
    return Array.from({ length: n }, () => {
      const x = a();
      const y = b();
      const v = x.map((xi, j) => xi + y[j]!);
      const norm = Math.hypot(...v);
      return v.map((vi) => vi / norm);
    });
  };
  let given: Float32Array[];
  let fresh: Float32Array[];
  let out: string;
  let manifest: ShardedManifest;
  let log: string[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'probe-questions-'));
    rows = [];
    for await (const r of source().rows()) rows.push(r.embedding);
    given = between(5, 120);
    fresh = between(6, 60);
    out = join(dir, 'questions');
    log = [];
    const flat = new Float32Array(given.length * DIM);
    given.forEach((q, i) => flat.set(q, i * DIM));
    await writeSharded({
      out,
      source: source(),
      model: 'test',
      targetRecall: 0.95,
      questions: flat,
      log: (l) => log.push(l),
    });
    manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is chosen on those questions, and new questions like them get what it promised', async () => {
    expect(manifest.probe!.queries).toBe(120);
    expect(log.some((l) => /on 120 questions given/.test(l))).toBe(true);
    const { recall } = await measuredRecall(out, fresh, rows);
    expect(Math.abs(recall - manifest.probe!.recall)).toBeLessThan(0.06);
    expect(recall).toBeGreaterThanOrEqual(0.9);
  });

  it('refuses questions of another dimension than the passages', async () => {
    await expect(
      writeSharded({ out: join(dir, 'bad'), source: source(), model: 'test', questions: new Float32Array(DIM + 1) }),
    ).rejects.toThrow(/not 64-d vectors/);
  });
});
