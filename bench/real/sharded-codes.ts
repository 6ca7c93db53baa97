// Recall against bytes a question for each code a sharded corpus can keep, measured by the
// writer's own replay of the reader (scripts/sharded/calibrate.ts) over every depth of its ladder,
// on given questions: `npm run bench -- scale --real --codes`. For each code, the cheapest depth
// that reaches each recall, and the best recall within each byte budget.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CalibrationResult } from '../../scripts/sharded/calibrate';
import { type CodeChoice, type ShardedRow, writeSharded } from '../../scripts/sharded/write-sharded';

export interface CodeCorpusSet {
  name: string;
  dim: number;
  n: number;
  row(i: number): Float32Array;
  meta(i: number): Omit<ShardedRow, 'embedding'>;
  queries: Float32Array[];
}

export const CODE_CHOICES: Array<{ name: string; codes: CodeChoice; listSize?: number; topsPerRoot?: number }> = [
  { name: 'sign codes, 1 bit (format 5)', codes: { kind: 'sign' } },
  { name: 'RaBitQ 1 bit, sub-centroids 1 bit', codes: { kind: 'rabitq', bits: 1, subBits: 1 } },
  { name: 'RaBitQ 1 bit, sub-centroids 4 bits', codes: { kind: 'rabitq', bits: 1, subBits: 4 } },
  { name: 'RaBitQ 2 bits, sub-centroids 4 bits', codes: { kind: 'rabitq', bits: 2, subBits: 4 } },
  { name: 'RaBitQ 4 bits, sub-centroids 4 bits', codes: { kind: 'rabitq', bits: 4, subBits: 4 } },
];

export interface CodeCorpusRow {
  code: string;
  lists: number;
  tops: number;
  tried: CalibrationResult['tried'];
}

export async function compareCorpusCodes(
  set: CodeCorpusSet,
  choices = CODE_CHOICES,
  log: (l: string) => void = console.log,
): Promise<CodeCorpusRow[]> {
  const questions = new Float32Array(set.queries.length * set.dim);
  set.queries.forEach((q, i) => questions.set(q, i * set.dim));
  const out: CodeCorpusRow[] = [];
  for (const { name, codes, listSize, topsPerRoot } of choices) {
    const lists = Math.max(1, Math.round(set.n / (listSize ?? 128)));
    const dir = mkdtempSync(join(tmpdir(), 'sharded-codes-'));
    try {
      const t0 = performance.now();
      const written = await writeSharded({
        out: dir,
        model: null,
        codes,
        questions,
        ...(listSize ? { lists } : {}),
        ...(topsPerRoot ? { tops: Math.round(topsPerRoot * Math.sqrt(lists)) } : {}),
        source: {
          rowCount: set.n,
          async *rows() {
            for (let i = 0; i < set.n; i++) yield { ...set.meta(i), embedding: set.row(i) };
          },
        },
      });
      const c = written.calibration!;
      out.push({ code: name, lists: written.lists, tops: written.tops, tried: c.tried });
      log(
        `[sharded codes] ${set.name}, ${name}: ${written.lists} lists under ${written.tops} tops, written and replayed in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return out;
}

const kB = (b: number) => `${Math.round(b / 1024)} kB`;
const depthOf = (d: { ntop: number; nprobe: number; rescore: number; blockRequests: number }) =>
  `${d.ntop} × ${d.nprobe} × ${d.rescore}, ${d.blockRequests.toFixed(0)} block requests`;

/** Markdown: per code, the cheapest depth reaching each recall, and the best recall within each budget. */
export function codeCorpusTable(
  rows: CodeCorpusRow[],
  recalls = [0.9, 0.95, 0.97],
  budgets = [200, 300, 400, 500],
): string {
  const lines = [
    `| code | ${recalls.map((r) => `cheapest for recall@10 ≥ ${r} (tops × lists × rows: vector bytes)`).join(' | ')} | ${budgets.map((b) => `best recall@10 within ${b} kB`).join(' | ')} |`,
    `|---|${recalls.map(() => '---').join('|')}|${budgets.map(() => '---:').join('|')}|`,
  ];
  for (const r of rows) {
    const cheapest = recalls.map((t) => {
      const ok = r.tried.filter((d) => d.recall >= t).sort((a, b) => a.vectorBytes - b.vectorBytes)[0];
      return ok ? `${depthOf(ok)}: ${kB(ok.vectorBytes)}` : 'not reached';
    });
    const best = budgets.map((b) => {
      const ok = r.tried.filter((d) => d.vectorBytes <= b * 1024).sort((a, c) => c.recall - a.recall)[0];
      return ok ? `${ok.recall.toFixed(3)} (${depthOf(ok)})` : '—';
    });
    lines.push(`| ${r.code} | ${cheapest.join(' | ')} | ${best.join(' | ')} |`);
  }
  return lines.join('\n');
}
