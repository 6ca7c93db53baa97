// Tables for docs/benchmarks-answer.md from what bench/answer-cost.bench.ts logged
// (test-output/answer-cost.jsonl), with the figures scaled to the default CPU model:
//   npx tsx bench/answer-cost/report.ts [file.jsonl]
// Scaling to Qwen2.5-0.5B-Instruct Q4_K_M (491 MB) from SmolLM2-135M-Instruct Q4_1 (98 MB):
// - decode is memory-bound: every token reads all the weights, so its time scales with the
//   bytes read per token, the GGUF's size: 491 / 98 = 5.0×;
// - prefill is compute-bound: 2 FLOPs per weight per token, and llama.cpp applies the output
//   matrix to the last prompt token only, so it scales with the non-embedding weights:
//   Qwen2.5-0.5B 24 × (896 × 2048 + 3 × 896 × 4864) = 357.8 M, SmolLM2-135M 30 × (576 × 1536 +
//   3 × 576 × 1536) = 106.2 M: 3.37×.
// Each answer's CPU seconds are split between prefill and decode in the proportion of llama.cpp's
// own prompt_ms and predicted_ms, and each part is scaled by its factor. Token counts are taken
// as they are (Qwen's larger vocabulary writes English in slightly fewer tokens: the scaled
// figures are, if anything, high).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OUTPUT_DIR } from '../../test/browser/harness';
import { containsAnswer, questions } from './setup';

export const DECODE_SCALE = 491 / 98;
export const PREFILL_SCALE = (24 * (896 * 2048 + 3 * 896 * 4864)) / (30 * (576 * 1536 + 3 * 576 * 1536));

interface Logged {
  model: string;
  threads: number;
  key: string;
  id: string;
  load: number;
  ms: number;
  firstMs: number;
  cpu: number;
  cpuFirst: number;
  aborted: boolean;
  text: string;
  candidates: number;
  skipped: number;
  problems: number;
  prefill: { prefilled: number; cached: number; decoded: number; decodeMs: number; prefillMs: number };
}

const LABELS: Record<string, string> = {
  plain: 'plain RAG (top 3 passages, one pass)',
  none: 'no retrieval (one pass)',
  'self-rag': 'Self-RAG, defaults (after the levers)',
  'self-rag-before': 'Self-RAG, defaults before the levers',
  'self-rag-gate': 'Self-RAG, before + relevance gate 0.5 only',
  'self-rag-stop': 'Self-RAG, before + stop at the first answer only',
  'self-rag-budget': 'Self-RAG, before + at most 3 candidates only',
  'self-crag': 'Self-CRAG, defaults (after the levers)',
  'self-crag-before': 'Self-CRAG, defaults before the levers',
};

function scaled(r: Logged, cpu: number): number {
  const p = r.prefill.prefillMs;
  const d = r.prefill.decodeMs;
  const fp = p + d > 0 ? p / (p + d) : 0.5;
  return cpu * (fp * PREFILL_SCALE + (1 - fp) * DECODE_SCALE);
}

export function report(file = join(OUTPUT_DIR, 'answer-cost.jsonl')): string {
  const runs = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Logged);
  const qs = new Map(questions().map((q) => [q.id, q]));
  const out: string[] = [];
  for (const [model, threads] of [...new Set(runs.map((r) => `${r.model}|${r.threads}`))].map(
    (k) => k.split('|') as [string, string],
  )) {
    const mine = runs.filter((r) => r.model === model && String(r.threads) === threads);
    // Ratios only over the questions every row finished or was run on, against plain RAG on the same questions.
    const ids = [...new Set(mine.map((r) => r.id))];
    const loads = mine.map((r) => r.load);
    out.push(
      `**${model}**, llama.cpp (wllama 3.8.1) on ${threads} thread${threads === '1' ? '' : 's'}, headless Chromium, questions ${ids.join(', ')}; load average ${Math.min(...loads).toFixed(0)}–${Math.max(...loads).toFixed(0)} on this 2-core machine`,
    );
    out.push('');
    out.push(
      '| answer | first words, CPU s | answer, CPU s | × plain, answer | × plain, first words | wall s (first / answer) | prefill tok/s (wall) | decode tok/s (wall) | prefilled/q | reused/q | decoded/q | candidates/q | skipped/q | gold in answer | on Qwen2.5-0.5B, est. CPU s (first / answer) |',
    );
    out.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
    const plain = mine.filter((r) => r.key === 'plain');
    for (const key of Object.keys(LABELS)) {
      const rs = mine.filter((r) => r.key === key);
      if (!rs.length) continue;
      const base = plain.filter((p) => rs.some((r) => r.id === p.id));
      const mean = (xs: Logged[], f: (r: Logged) => number) => xs.reduce((a, r) => a + f(r), 0) / xs.length;
      const sum = (f: (r: Logged) => number) => rs.reduce((a, r) => a + f(r), 0);
      const capped = rs.filter((r) => r.aborted).length;
      const lb = capped ? '≥ ' : '';
      const gold = rs.filter((r) => containsAnswer(r.text, qs.get(r.id)!)).length;
      out.push(
        `| ${LABELS[key]} | ${mean(rs, (r) => r.cpuFirst).toFixed(1)} | ${lb}${mean(rs, (r) => r.cpu).toFixed(1)} | ${lb}${base.length ? (mean(rs, (r) => r.cpu) / mean(base, (r) => r.cpu)).toFixed(2) : '-'} | ${base.length ? (mean(rs, (r) => r.cpuFirst) / mean(base, (r) => r.cpuFirst)).toFixed(2) : '-'} | ${(mean(rs, (r) => r.firstMs) / 1000).toFixed(0)} / ${lb}${(mean(rs, (r) => r.ms) / 1000).toFixed(0)} | ${((sum((r) => r.prefill.prefilled) / sum((r) => r.prefill.prefillMs)) * 1000).toFixed(0)} | ${((sum((r) => r.prefill.decoded) / sum((r) => r.prefill.decodeMs)) * 1000).toFixed(1)} | ${lb}${(sum((r) => r.prefill.prefilled) / rs.length).toFixed(0)} | ${(sum((r) => r.prefill.cached) / rs.length).toFixed(0)} | ${lb}${(sum((r) => r.prefill.decoded) / rs.length).toFixed(0)} | ${(sum((r) => r.candidates) / rs.length).toFixed(1)} | ${(sum((r) => r.skipped) / rs.length).toFixed(1)} | ${gold}/${rs.length}${capped ? ` (${capped} stopped at the cap)` : ''} | ${mean(rs, (r) => scaled(r, r.cpuFirst)).toFixed(0)} / ${lb}${mean(rs, (r) => scaled(r, r.cpu)).toFixed(0)} |`,
      );
    }
    out.push('');
  }
  return out.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(report(process.argv[2]));
