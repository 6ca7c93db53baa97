// What an answer costs a user on a CPU (issue 28): a real GGUF through the app's llama.cpp
// generator (wllama 3.8.1) in headless Chromium, the real MiniLM (q8) retrieving from the
// sample library, the sample questions. Per answer kind: seconds to the first visible words
// and to the whole answer, llama.cpp's prefill and decode speed, tokens prefilled (computed,
// not reused from the prompt cache) and decoded per question, and each kind's time as a
// ratio to plain RAG's (one prompt with the top 3 passages, one pass) measured in the same run.
//   ANSWER_COST_MODEL=qwen05|smollm2|gemma  ANSWER_COST_THREADS=1,2  ANSWER_COST_QUESTIONS=4
//   ANSWER_COST_ROWS=plain,none,self-rag,self-crag,self-rag-gate  (which rows to run)
//   ANSWER_COST_SET=real|sample  the labelled real set over its library (default), or the sample library
import { appendFileSync, mkdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { OUTPUT_DIR } from '../test/browser/harness';
import { PAPER_DECODE_SETTINGS } from '../src/core/defaults';
import { REAL } from '../scripts/real-models/catalogue';
import {
  containsAnswer,
  loadModels,
  loadSetModels,
  modelUrl,
  openPage,
  questions,
  setQuestions,
} from './answer-cost/setup';
import type { Kind, RunOptions } from '../test/browser/pages/answer-cost-page';

interface Row {
  label: string;
  kind: Kind;
  opts?: RunOptions;
}

const CAP = Number(process.env.ANSWER_COST_CAP_S ?? '480');
// 'before': the paper's search as shipped before the levers (unbounded: stopped at a wall-clock
// cap, so its figures are lower bounds); 'after': today's defaults, bounded by the candidate budget. The
// evaluator behind the gate and the critique is the real MiniLM's calibrated cosine here
// (the app's is its cross-encoder); CRAG's retrieval evaluator is the tiny cross-encoder stand-in.
export const ROWS: Record<string, Row> = {
  plain: { label: 'plain RAG (top 3 passages, one pass)', kind: 'plain' },
  none: { label: 'no retrieval (one pass)', kind: 'none' },
  'self-rag': { label: 'Self-RAG, defaults', kind: 'self-rag', opts: { critic: 'minilm' } },
  'self-rag-together': {
    label: "Self-RAG, defaults, a step's candidates sent together (one llama.cpp batch)",
    kind: 'self-rag',
    opts: { critic: 'minilm', together: true },
  },
  'self-rag-before': {
    label: 'Self-RAG, defaults before the levers',
    kind: 'self-rag',
    opts: { critic: 'minilm', decode: { ...PAPER_DECODE_SETTINGS }, capSeconds: CAP },
  },
  'self-rag-gate': {
    label: 'Self-RAG, before + relevance gate 0.5 only',
    kind: 'self-rag',
    opts: { critic: 'minilm', decode: { ...PAPER_DECODE_SETTINGS, relevanceGate: 0.5 }, capSeconds: CAP },
  },
  'self-rag-stop': {
    label: 'Self-RAG, before + stop at the first answer only',
    kind: 'self-rag',
    opts: { critic: 'minilm', decode: { ...PAPER_DECODE_SETTINGS, stopAtFirstAnswer: true }, capSeconds: CAP },
  },
  'self-rag-budget': {
    label: 'Self-RAG, before + at most 3 candidates only',
    kind: 'self-rag',
    opts: { critic: 'minilm', decode: { ...PAPER_DECODE_SETTINGS, maxCandidates: 3 }, capSeconds: CAP },
  },
  'self-crag': { label: 'Self-CRAG, defaults (after the levers)', kind: 'self-crag', opts: { critic: 'minilm' } },
  'self-crag-before': {
    label: 'Self-CRAG, defaults before the levers',
    kind: 'self-crag',
    opts: { critic: 'minilm', decode: { ...PAPER_DECODE_SETTINGS }, capSeconds: CAP },
  },
};

interface Result {
  /** CPU seconds, to the whole answer and to its first visible words. */
  cpu: number;
  cpuFirst: number;
  aborted: boolean;
  ms: number;
  firstMs: number;
  text: string;
  cited: string[];
  candidates: number;
  skipped: number;
  problems: number;
  prefill: { prefilled: number; cached: number; decoded: number; decodeMs: number; prefillMs: number };
}

const env = (k: string, d: string) => process.env[k] ?? d;

export async function run(): Promise<void> {
  const modelKey = env('ANSWER_COST_MODEL', 'qwen05') as 'qwen05' | 'smollm2' | 'gemma';
  const real = env('ANSWER_COST_SET', 'real') === 'real';
  const threads = env('ANSWER_COST_THREADS', '1,2').split(',').map(Number);
  const rows = env('ANSWER_COST_ROWS', 'plain,none,self-rag,self-crag').split(',');
  const ids = process.env.ANSWER_COST_IDS?.split(',');
  const n = Number(env('ANSWER_COST_QUESTIONS', '4'));
  const pool = real ? setQuestions(ids ? Number.MAX_SAFE_INTEGER : n) : questions();
  const qs = ids ? pool.filter((q) => ids.includes(q.id)) : pool.slice(0, n);
  // Every run, as it finishes, for later reading (bench/isrel.bench.ts reads the generator's ISREL from it).
  mkdirSync(OUTPUT_DIR, { recursive: true });
  const log = join(OUTPUT_DIR, 'answer-cost.jsonl');
  const models = real ? await loadSetModels() : await loadModels();
  const page = await openPage(models);
  const load0 = loadavg()[0]!;
  try {
    for (const t of threads) {
      const info = await page.call<{ threads: number; isolated: boolean }>('load', modelUrl(REAL[modelKey]), t);
      console.log(`[answer-cost] ${REAL[modelKey]} loaded on ${info.threads} thread(s)`);
      await page.call('run', 'none', 'Say hello.'); // the first request pays one-off set-up
      const totals = new Map<string, Result[]>();
      // Rows alternate per question so machine load hits each alike.
      for (const q of qs) {
        for (const key of rows) {
          const row = ROWS[key]!;
          const r = await page.call<Result>('run', row.kind, q.question, row.opts ?? {});
          console.log(
            `[answer-cost] ${t}t ${key} ${q.id}: ${(r.ms / 1000).toFixed(1)} s${r.aborted ? ' (stopped at the cap)' : ''}, first ${(r.firstMs / 1000).toFixed(1)} s, cpu ${r.cpu.toFixed(1)} s, cpu to first ${r.cpuFirst.toFixed(1)} s, prefilled ${r.prefill.prefilled}, decoded ${r.prefill.decoded}, candidates ${r.candidates}, skipped ${r.skipped}, gold ${containsAnswer(r.text, q) ? 'yes' : 'no'} | ${r.text.slice(0, 100).replace(/\n/g, ' ')}`,
          );
          totals.set(key, [...(totals.get(key) ?? []), r]);
          appendFileSync(
            log,
            JSON.stringify({ model: REAL[modelKey], threads: t, key, id: q.id, load: loadavg()[0], ...r }) + '\n',
          );
        }
      }
      const base = totals.get('plain');
      const sum = (rs: Result[], f: (r: Result) => number) => rs.reduce((a, r) => a + f(r), 0);
      console.log(
        `\n${REAL[modelKey]} · llama.cpp (wllama 3.8.1) ${info.threads} thread${info.threads > 1 ? 's' : ''} (cross-origin isolated: ${info.isolated}) · headless Chromium · ${cpus().length}-core shared machine, load ${load0.toFixed(1)} at start, ${loadavg()[0]!.toFixed(1)} now`,
      );
      console.log(
        `${qs.length} ${real ? 'labelled real (test split)' : 'sample'} questions (${qs.map((q) => q.id).join(', ')}), ${real ? "the set's library (words and meaning fused)" : 'sample library'}, real MiniLM q8; medians would need more runs: these are means\n`,
      );
      console.log(
        '| answer | first words, CPU s (wall s) | answer, CPU s (wall s) | × plain, answer (CPU) | × plain, first words (CPU) | prefill tok/s | decode tok/s | prefilled/q | reused/q | decoded/q | candidates/q | gold in answer |',
      );
      console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
      const mean = (rs: Result[], f: (r: Result) => number) => sum(rs, f) / rs.length;
      for (const key of rows) {
        const rs = totals.get(key)!;
        const n = rs.length;
        const p = (f: (r: Result) => number) => sum(rs, f);
        const gold = rs.filter((r, i) => containsAnswer(r.text, qs[i]!)).length;
        const capped = rs.filter((r) => r.aborted).length;
        const ratio = (f: (r: Result) => number) => (base ? (mean(rs, f) / mean(base, f)).toFixed(2) : '-');
        console.log(
          `| ${ROWS[key]!.label} | ${mean(rs, (r) => r.cpuFirst).toFixed(1)} (${(mean(rs, (r) => r.firstMs) / 1000).toFixed(1)}) | ${mean(rs, (r) => r.cpu).toFixed(1)} (${(mean(rs, (r) => r.ms) / 1000).toFixed(1)}) | ${ratio((r) => r.cpu)} | ${ratio((r) => r.cpuFirst)} | ${((p((r) => r.prefill.prefilled) / p((r) => r.prefill.prefillMs)) * 1000).toFixed(0)} | ${((p((r) => r.prefill.decoded) / p((r) => r.prefill.decodeMs)) * 1000).toFixed(1)} | ${(p((r) => r.prefill.prefilled) / n).toFixed(0)} | ${(p((r) => r.prefill.cached) / n).toFixed(0)} | ${(p((r) => r.prefill.decoded) / n).toFixed(0)} | ${(p((r) => r.candidates) / n).toFixed(1)} | ${gold}/${n}${capped ? ` (${capped} stopped at ${CAP} s wall: lower bounds)` : ''} |`,
        );
      }
      console.log('');
    }
  } finally {
    await page.close();
  }
}
