// `npm run index -- --check <corpus folder> --questions <file>`: what a written sharded corpus
// gives a site's own questions. Each question is answered by the page's reader (the depth its
// manifest names, a cold cache: a first visit) over the corpus's files, and graded against an
// exact search over every row of rows.bin (its int8 vectors): recall@10 (strict), the worst tenth
// of questions, bytes and requests a question (by meaning alone, then with words, as the page
// reads), beside the recall the manifest promises. Nothing is written.
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryBlockCache, type BlockCache } from '../../src/library/sharded/block-cache';
import { checkManifest, ROWS_FILE, SHARDED_MANIFEST } from '../../src/library/sharded/format/manifest';
import { rowRecordBytes } from '../../src/library/sharded/format/rows';
import { ShardedCorpus } from '../../src/library/sharded/reader';
import { int8Codec } from '../../src/vector/row-store';
import { topIndices } from '../../src/vector/top-rows';

const K = 10;
const BASE = 'https://corpus.check/';

/** A fetch over a local folder that answers single byte ranges, as a static host does. */
export function folderFetch(dir: string): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    const path = join(dir, decodeURIComponent(url.slice(BASE.length)));
    let size: number;
    try {
      size = statSync(path).size;
    } catch {
      return new Response('not found', { status: 404 });
    }
    const m = /^bytes=(\d+)-(\d+)$/.exec(new Headers(init?.headers).get('range') ?? '');
    if (!m) return new Response(readFileSync(path), { status: 200 });
    const from = Number(m[1]),
      to = Math.min(Number(m[2]), size - 1);
    const part = Buffer.alloc(to - from + 1);
    const fd = openSync(path, 'r');
    try {
      readSync(fd, part, 0, part.length, from);
    } finally {
      closeSync(fd);
    }
    return new Response(part, { status: 206, headers: { 'content-range': `bytes ${from}-${to}/${size}` } });
  }) as typeof fetch;
}

class ClearableCache implements BlockCache {
  inner = new MemoryBlockCache();
  get(k: string) {
    return this.inner.get(k);
  }
  put(k: string, b: Uint8Array) {
    return this.inner.put(k, b);
  }
}

/** Each question's exact top 10 over rows.bin's int8 rows, as the row records' text offsets (the reader's hit ids). */
function exactTop(dir: string, dim: number, questions: Float32Array[]): Array<Set<string>> {
  const rb = rowRecordBytes(dim);
  const vb = int8Codec.rowBytes(dim);
  const fd = openSync(join(dir, ROWS_FILE), 'r');
  const best = questions.map(() => ({ scores: new Float64Array(0), keys: [] as number[] }));
  const chunk = Buffer.allocUnsafe(rb * 8192);
  try {
    for (let at = 0; ; ) {
      const got = readSync(fd, chunk, 0, chunk.length, at);
      if (got <= 0) break;
      at += got;
      const rows = Math.floor(got / rb);
      const view = new DataView(chunk.buffer, chunk.byteOffset, got);
      const offsets = Array.from({ length: rows }, (_, r) => view.getFloat64(r * rb + vb, true));
      questions.forEach((q, i) => {
        const scores = Float64Array.from({ length: rows }, (_, r) =>
          int8Codec.dot(q, chunk.subarray(r * rb, r * rb + vb)),
        );
        const b = best[i]!;
        const all = Float64Array.from([...b.scores, ...scores]);
        const keys = [...b.keys, ...offsets];
        const top = topIndices(all, K);
        best[i] = { scores: Float64Array.from(top, (t) => all[t]!), keys: Array.from(top, (t) => keys[t]!) };
      });
    }
  } finally {
    closeSync(fd);
  }
  return best.map((b) => new Set(b.keys.map(String)));
}

export interface CheckResult {
  questions: number;
  recall: number;
  p10: number;
  promised: { recall: number; lower: number; on: string } | null;
  depth: string;
  meaning: { bytes: number[]; requests: number[] };
  both: { bytes: number[]; requests: number[] };
}

/** `vectors`: the questions' embeddings end to end (the corpus's dimension); `texts`: their words, where known. */
export async function checkCorpus(
  dir: string,
  vectors: Float32Array,
  texts: readonly string[] = [],
): Promise<CheckResult> {
  const m = checkManifest(JSON.parse(readFileSync(join(dir, SHARDED_MANIFEST), 'utf8')));
  if (vectors.length % m.dim !== 0 || vectors.length === 0)
    throw new Error(`the questions are not ${m.dim}-d vectors, as the corpus's passages are`);
  const questions = Array.from({ length: vectors.length / m.dim }, (_, i) => ({
    vector: vectors.subarray(i * m.dim, (i + 1) * m.dim),
    text: texts[i] ?? '',
  }));
  const cache = new ClearableCache();
  const corpus = await ShardedCorpus.open(BASE, { fetch: folderFetch(dir), cache });
  const unit = questions.map((q) => {
    const n = Math.hypot(...q.vector);
    return Float32Array.from(q.vector, (x) => x / n);
  });
  const truth = exactTop(dir, m.dim, unit);
  const per: number[] = [];
  const out: CheckResult = {
    questions: questions.length,
    recall: 0,
    p10: 0,
    promised: m.probe ? { recall: m.probe.recall, lower: m.probe.lower, on: m.probe.on ?? 'passages' } : null,
    depth: `${corpus.depth.ntop} tops × ${corpus.depth.nprobe} lists × ${corpus.depth.rescore} rows`,
    meaning: { bytes: [], requests: [] },
    both: { bytes: [], requests: [] },
  };
  for (let i = 0; i < questions.length; i++) {
    for (const mode of ['meaning', 'both'] as const) {
      cache.inner = new MemoryBlockCache();
      const a = await corpus.search({ vector: unit[i]!, text: questions[i]!.text, k: K, mode });
      if (a.problems.length) throw new Error(a.problems.join('; '));
      out[mode].bytes.push(a.stats.bytes);
      out[mode].requests.push(a.stats.requests);
      if (mode === 'meaning') per.push(a.hits.filter((h) => truth[i]!.has(h.id)).length / K);
    }
  }
  out.recall = per.reduce((a, b) => a + b, 0) / per.length;
  out.p10 = [...per].sort((a, b) => a - b)[Math.floor(per.length / 10)]!;
  return out;
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

/** The report `npm run index -- --check` prints. */
export function checkReport(r: CheckResult): string {
  const kB = (b: number) => `${Math.round(b / 1024)} kB`;
  const gap = r.promised ? r.recall - r.promised.recall : null;
  return [
    `${r.questions} questions, read at the manifest's depth (${r.depth}), one at a time with nothing cached:`,
    `  recall@10 against exact search over the corpus's rows: ${r.recall.toFixed(3)} (the worst tenth of questions at ${r.p10.toFixed(3)} or less)`,
    r.promised
      ? `  the manifest promises ${r.promised.recall.toFixed(3)} (95 % lower bound ${r.promised.lower.toFixed(3)}), measured on ${r.promised.on}: ${gap! >= 0 ? 'met' : `${(-gap!).toFixed(3)} short`}`
      : '  the manifest promises nothing (written before the writer measured its depth)',
    `  by meaning: ${kB(pct(r.meaning.bytes, 0.5))} and ${pct(r.meaning.requests, 0.5)} requests a question (p50; p95 ${kB(pct(r.meaning.bytes, 0.95))}, ${pct(r.meaning.requests, 0.95)})`,
    `  with words, as the page reads: ${kB(pct(r.both.bytes, 0.5))} and ${pct(r.both.requests, 0.5)} requests (p50; p95 ${kB(pct(r.both.bytes, 0.95))}, ${pct(r.both.requests, 0.95)})`,
  ].join('\n');
}
