// What the bench measures on the recipe's output, in Node: recall@10 of a written sharded corpus
// read over HTTP at the depth its manifest names, against exact cosine search over the very
// vectors Ray wrote (the baseline, same run); and how close the page's own ONNX embedder comes
// to the sentence-transformers vectors Ray wrote.
import type { BlockCache } from '../../src/library/sharded/block-cache';
import { ShardedCorpus } from '../../src/library/sharded/reader';
import { FlatIndex } from '../../src/vector/flat-index';
import type { EmbeddedPassages } from './parquet-io';

export const K = 10;
const f3 = (x: number) => x.toFixed(3);

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))] ?? NaN;
export const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

/** Exact top-K passage ids for each question: the reference. */
export function exactSearch(data: EmbeddedPassages, questions: Float32Array[]): string[][] {
  const flat = new FlatIndex(data.dim);
  flat.add(data.ids, data.vectors);
  return questions.map((q) => flat.search(q, K).map((h) => h.id));
}

export interface RecallResult {
  recall: number;
  /** The 10th-percentile question's recall: how bad the worse questions get. */
  p10: number;
  /** Share of questions whose exact top-1 is among the K found. */
  top1: number;
  /** Mean bytes a question fetched with nothing cached (a first visit). */
  bytes: number;
  depth: string;
  /** What the writer measured for that depth on its own passages as questions. */
  writer: string;
}

export function recallAgainst(got: string[][], truth: string[][]): Omit<RecallResult, 'bytes' | 'depth' | 'writer'> {
  const per = got.map((ids, i) => ids.filter((id) => truth[i]!.includes(id)).length / K);
  return {
    recall: mean(per),
    p10: pct(per, 0.1),
    top1: mean(got.map((ids, i) => (ids.includes(truth[i]![0]!) ? 1 : 0))),
  };
}

/** Keeps nothing: every question pays for its blocks as a first visitor would. */
const NO_CACHE: BlockCache = { get: async () => undefined, put: async () => undefined };

/** The sharded corpus at `url`, asked each question by meaning at the manifest's depth. */
export async function shardedRecall(url: string, questions: Float32Array[], truth: string[][]): Promise<RecallResult> {
  const corpus = await ShardedCorpus.open(url, { fetch, cache: NO_CACHE });
  const d = corpus.depth;
  const p = corpus.manifest.probe;
  const got: string[][] = [];
  const bytes: number[] = [];
  for (const q of questions) {
    const a = await corpus.search({ vector: q, text: '', k: K, ...d, mode: 'meaning' });
    if (a.problems.length) throw new Error(`${url}: ${a.problems.join('; ')}`);
    got.push(a.hits.map((h) => h.passage.id));
    bytes.push(a.stats.bytes);
  }
  return {
    ...recallAgainst(got, truth),
    bytes: mean(bytes),
    depth: `${d.ntop} tops × ${d.nprobe} lists, rescore ${d.rescore}`,
    writer: p ? `${f3(p.recall)} (95 % lower bound ${f3(p.lower)}, target ${p.target})` : 'none',
  };
}

/** Cosine of each pair (both sides normalised by their embedders; divided anyway, to be sure). */
export function cosines(a: Float32Array[], b: Float32Array[]): { mean: number; min: number } {
  const cs = a.map((v, i) => dot(v, b[i]!) / Math.sqrt(dot(v, v) * dot(b[i]!, b[i]!)));
  return { mean: mean(cs), min: Math.min(...cs) };
}
