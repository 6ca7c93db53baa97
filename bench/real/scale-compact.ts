// The compact index on a vector set (bench/real/scale-real.ts): the index as it ranked before
// (sign codes: Hamming over every row, 2,000 rescored by the float question against the signs, 400
// scored on int8: bench/scale/sign-compact.ts) beside the current one (RaBitQ codes) at its
// default and a few other depths, with its int8 rows on disk as in a tab's OPFS. Recall@10 against
// exact search, counted strictly (near-ties beside it); p50 time a question and CPU time a
// question, the old index the baseline in the same run.
import { join } from 'node:path';
import { FileRowStore } from '../../src/vector/byte-file';
import { CompactIndex, DEFAULT_CANDIDATES, DEFAULT_RESCORE } from '../../src/vector/compact-index';
import { int8Codec } from '../../src/vector/row-store';
import { NodeFile } from '../scale/node-file';
import { SignCompactIndex } from '../scale/sign-compact';

export interface CompactSet {
  name: string;
  dim: number;
  n: number;
  row(i: number): Float32Array;
  questions: Array<{ vector: Float32Array; truth: Set<number>; tenth: number }>;
}

export interface CompactRow {
  set: string;
  index: string;
  recall: number;
  p10: number;
  tolerant: number;
  p50ms: number;
  cpuMs: number;
  /** Bytes held in memory a row (codes, factors; ids not counted). */
  memoryPerRow: number;
}

const K = 10;
const NEAR_TIE = 0.01;
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? Number.NaN;
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let j = 0; j < a.length; j++) s += a[j]! * b[j]!;
  return s;
};

/** Depths of the current index measured besides its default (candidates → rescore). */
export const COMPACT_DEPTHS: ReadonlyArray<readonly [number, number]> = [
  [2000, 400],
  [1000, 200],
  [400, 400],
  [200, 200],
  [100, 100],
];

export function measureCompact(set: CompactSet, dir: string, log: (l: string) => void = console.log): CompactRow[] {
  const ids = Array.from({ length: set.n }, (_, i) => String(i));
  const views = ids.map((_, i) => set.row(i));
  const rb = int8Codec.rowBytes(set.dim);
  const grade = (index: string, memoryPerRow: number, search: (q: Float32Array) => string[]): CompactRow => {
    for (const q of set.questions.slice(0, 20)) search(q.vector);
    const per: number[] = [];
    const near: number[] = [];
    const times: number[] = [];
    const c0 = cpu();
    for (const q of set.questions) {
      const t = performance.now();
      const got = search(q.vector).map(Number);
      times.push(performance.now() - t);
      per.push(got.filter((i) => q.truth.has(i)).length / K);
      near.push(got.filter((i) => q.truth.has(i) || dot(q.vector, set.row(i)) >= q.tenth - NEAR_TIE).length / K);
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const row = {
      set: set.name,
      index,
      recall: mean(per),
      p10: pct(per, 0.1),
      tolerant: mean(near),
      p50ms: pct(times, 0.5),
      cpuMs: (cpu() - c0) / set.questions.length,
      memoryPerRow,
    };
    log(`[compact] ${set.name}, ${index}: recall@10 ${row.recall.toFixed(3)}, p50 ${row.p50ms.toFixed(2)} ms`);
    return row;
  };
  const file = (name: string) =>
    new FileRowStore(rb, new NodeFile(join(dir, `${set.name.replace(/\W/g, '_')}-${name}`)));
  const rows: CompactRow[] = [];
  const old = new SignCompactIndex(set.dim, file('sign'), 2000, 400);
  old.add(ids, views);
  const bitsBytes = Math.ceil(set.dim / 128) * 16;
  rows.push(
    grade('sign codes: Hamming → 2,000 → float question on signs → 400 int8 (the index before)', bitsBytes, (q) =>
      old.search(q, K).map((h) => h.id),
    ),
  );
  const depths = [
    [DEFAULT_CANDIDATES, DEFAULT_RESCORE] as const,
    ...COMPACT_DEPTHS.filter(([c, r]) => c !== DEFAULT_CANDIDATES || r !== DEFAULT_RESCORE),
  ];
  for (const [candidates, rescore] of depths) {
    const index = new CompactIndex(set.dim, { store: file(`rabitq-${candidates}-${rescore}`), candidates, rescore });
    index.add(ids, views);
    const name = `RaBitQ 1 bit: fast scan → ${candidates}${candidates > rescore ? ` → float question → ${rescore}` : ''} int8${candidates === DEFAULT_CANDIDATES && rescore === DEFAULT_RESCORE ? ' (**the default**)' : ''}`;
    rows.push(grade(name, (index.memoryBytes() - set.dim * 4) / set.n, (q) => index.search(q, K).map((h) => h.id)));
  }
  return rows;
}

export function compactTable(rows: readonly CompactRow[]): string {
  const lines = [
    '| vectors | index | recall@10 | 10th-percentile question | near-ties counted | p50 ms | CPU ms a question | time / the index before (same run) | memory a row |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const base = rows.find((b) => b.set === r.set)!;
    lines.push(
      `| ${r.set} | ${r.index} | **${r.recall.toFixed(3)}** | ${r.p10.toFixed(3)} | ${r.tolerant.toFixed(3)} | ${r.p50ms.toFixed(2)} | ${r.cpuMs.toFixed(2)} | ${(r.p50ms / base.p50ms).toFixed(2)} | ${Math.round(r.memoryPerRow)} B |`,
    );
  }
  return lines.join('\n');
}
