// The sharded corpus on a vector set (bench/real/scale-real.ts): corpora written by the real writer
// (scripts/sharded/) with each code and each way of choosing the reading depth, served over
// loopback HTTP with byte ranges, read by the real reader at the depth each manifest names, one
// question at a time with a cold cache (a first visit). Recall@10 against exact search counted
// strictly (near-ties beside it); bytes and requests per question, in 'meaning' mode (the vectors'
// part and the texts of the top 10) and in 'both' mode (words too: what the page reads); the
// manifest's promise beside what the questions got.
import { join } from 'node:path';
import { type CodeChoice, type ShardedRow, writeSharded } from '../../scripts/sharded/write-sharded';
import { MemoryBlockCache, type BlockCache } from '../../src/library/sharded/block-cache';
import { ShardedCorpus } from '../../src/library/sharded/reader';
import { serveDir } from '../../test/browser/harness';

export interface ShardedSet {
  name: string;
  dim: number;
  n: number;
  row(i: number): Float32Array;
  meta(i: number): Omit<ShardedRow, 'embedding'>;
  /** Questions: their vectors and texts, and each one's exact top 10 (row numbers) and 10th score. */
  questions: Array<{ vector: Float32Array; text: string; truth: Set<number>; tenth: number }>;
  /** Embeds pseudo-questions as the page embeds questions (absent: the writer calibrates on passages). */
  embedQuestions?: (texts: string[]) => Promise<Float32Array[]>;
}

export interface ShardedVariant {
  name: string;
  codes: CodeChoice;
  /** How the writer chooses the depth: its default (pseudo-questions when it can embed), passages only, or the first N questions given. */
  calibrate: 'default' | 'passages' | { questions: number };
  /** The recall@10 the writer chooses the depth for (`--recall`; default 0.95). */
  targetRecall?: number;
}

export interface ShardedRowResult {
  set: string;
  variant: string;
  depth: string;
  /** What the manifest promises (its mean and 95 % lower bound) and on what it measured them. */
  promised: { recall: number; lower: number; on: string; queries: number } | null;
  /** Measured on the questions the writer did not see. */
  measured: number;
  recall: number;
  p10: number;
  tolerant: number;
  meaning: { bytes: number; requests: number };
  both: { bytes: number; requests: number };
  p50ms: number;
  buildSeconds: number;
  lists: number;
}

const K = 10;
const NEAR_TIE = 0.01;
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? Number.NaN;

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

async function build(set: ShardedSet, v: ShardedVariant, out: string) {
  const given = typeof v.calibrate === 'object' ? v.calibrate.questions : 0;
  const questions = new Float32Array(given * set.dim);
  set.questions.slice(0, given).forEach((q, i) => questions.set(q.vector, i * set.dim));
  const t0 = performance.now();
  const written = await writeSharded({
    out,
    model: 'all-MiniLM-L6-v2',
    codes: v.codes,
    targetRecall: v.targetRecall ?? 0.95,
    source: {
      rowCount: set.n,
      async *rows() {
        for (let i = 0; i < set.n; i++) yield { ...set.meta(i), id: String(i), embedding: set.row(i) };
      },
    },
    ...(given ? { questions } : {}),
    ...(v.calibrate === 'default' && set.embedQuestions ? { embedQuestions: set.embedQuestions } : {}),
  });
  return { written, given, buildSeconds: (performance.now() - t0) / 1000 };
}

/** Writes each variant's corpus under `dir` and reads it with the questions it was not calibrated on. */
export async function measureSharded(
  set: ShardedSet,
  variants: readonly ShardedVariant[],
  dir: string,
  log: (l: string) => void = console.log,
): Promise<ShardedRowResult[]> {
  const out: ShardedRowResult[] = [];
  for (const v of variants) {
    const site = join(dir, `site-${out.length}`);
    const { written, given, buildSeconds } = await build(set, v, join(site, 'corpus'));
    const served = await serveDir(site);
    try {
      const cache = new ClearableCache();
      const corpus = await ShardedCorpus.open(`${served.url}corpus/`, { fetch, cache });
      const d = corpus.depth;
      const p = corpus.manifest.probe;
      const asked = set.questions.slice(given);
      const per: number[] = [];
      const near: number[] = [];
      const times: number[] = [];
      const meaning = { bytes: [] as number[], requests: [] as number[] };
      const both = { bytes: [] as number[], requests: [] as number[] };
      for (const q of asked) {
        cache.clear();
        const t = performance.now();
        const a = await corpus.search({ vector: q.vector, text: q.text, k: K, mode: 'meaning' });
        times.push(performance.now() - t);
        if (a.problems.length) throw new Error(a.problems.join('; '));
        meaning.bytes.push(a.stats.bytes);
        meaning.requests.push(a.stats.requests);
        const ids = a.hits.map((h) => Number(h.passage.id));
        per.push(ids.filter((id) => q.truth.has(id)).length / K);
        near.push(ids.filter((id) => q.truth.has(id) || dotOf(q.vector, set.row(id)) >= q.tenth - NEAR_TIE).length / K);
        cache.clear();
        const w = await corpus.search({ vector: q.vector, text: q.text, k: K, mode: 'both' });
        both.bytes.push(w.stats.bytes);
        both.requests.push(w.stats.requests);
      }
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const row: ShardedRowResult = {
        set: set.name,
        variant: v.name,
        depth: `${d.ntop} tops × ${d.nprobe} lists × ${d.rescore} rows`,
        promised: p ? { recall: p.recall, lower: p.lower, on: p.on ?? 'passages', queries: p.queries } : null,
        measured: asked.length,
        recall: mean(per),
        p10: pct(per, 0.1),
        tolerant: mean(near),
        meaning: { bytes: pct(meaning.bytes, 0.5), requests: pct(meaning.requests, 0.5) },
        both: { bytes: pct(both.bytes, 0.5), requests: pct(both.requests, 0.5) },
        p50ms: pct(times, 0.5),
        buildSeconds,
        lists: written.lists,
      };
      out.push(row);
      log(
        `[sharded] ${set.name}, ${v.name}: ${row.depth}, recall@10 ${row.recall.toFixed(3)} (promised ${row.promised?.recall ?? '—'} on ${row.promised?.on ?? '—'}), ${Math.round(row.both.bytes / 1024)} kB / ${row.both.requests} requests a question (built in ${buildSeconds.toFixed(0)} s)`,
      );
    } finally {
      await served.close();
    }
  }
  return out;
}

function dotOf(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let j = 0; j < a.length; j++) s += a[j]! * b[j]!;
  return s;
}

/** The rows as a markdown table. */
export function shardedTable(rows: readonly ShardedRowResult[]): string {
  const kB = (b: number) => `${Math.round(b / 1024)} kB`;
  const lines = [
    '| vectors | corpus (codes; depth chosen on) | depth in the manifest | promised recall@10 (lower bound; on) | recall@10 measured (questions) | 10th-percentile question | near-ties counted | kB / requests a question, meaning | kB / requests a question, words too | p50 ms (loopback) |',
    '|---|---|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows)
    lines.push(
      `| ${r.set} | ${r.variant} | ${r.depth} | ${r.promised ? `${r.promised.recall.toFixed(3)} (${r.promised.lower.toFixed(3)}; ${r.promised.queries} ${r.promised.on})` : '—'} | **${r.recall.toFixed(3)}** (${r.measured}) | ${r.p10.toFixed(3)} | ${r.tolerant.toFixed(3)} | ${kB(r.meaning.bytes)} / ${r.meaning.requests} | ${kB(r.both.bytes)} / ${r.both.requests} | ${r.p50ms.toFixed(1)} |`,
    );
  return lines.join('\n');
}
