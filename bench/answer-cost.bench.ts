// What an answer costs a user on a CPU (issue 28): a real GGUF through the app's llama.cpp
// generator (wllama 3.8.1) in headless Chromium, the real MiniLM (q8) retrieving from the
// sample library, the sample questions. Per answer kind: seconds to the first visible words
// and to the whole answer, llama.cpp's prefill and decode speed, tokens prefilled (computed,
// not reused from the prompt cache) and decoded per question, and each kind's time as a
// ratio to plain RAG's (one prompt with the top 3 passages, one pass) measured in the same run.
//   ANSWER_COST_MODEL=smollm2|gemma  ANSWER_COST_THREADS=1,2  ANSWER_COST_QUESTIONS=4
//   ANSWER_COST_ROWS=plain,none,self-rag,self-crag,self-rag-gate  (which rows to run)
import { cpus, loadavg } from 'node:os';
import { REAL } from '../scripts/real-models/catalogue';
import { containsAnswer, loadModels, modelUrl, openPage, questions } from './answer-cost/setup';
import type { Kind, RunOptions } from '../test/browser/pages/answer-cost-page';

interface Row {
  label: string;
  kind: Kind;
  opts?: RunOptions;
}

export const ROWS: Record<string, Row> = {
  plain: { label: 'plain RAG (top 3 passages, one pass)', kind: 'plain' },
  none: { label: 'no retrieval (one pass)', kind: 'none' },
  'self-rag': { label: 'Self-RAG, default settings', kind: 'self-rag' },
  'self-crag': { label: 'Self-CRAG, default settings', kind: 'self-crag' },
  'self-rag-gate': { label: 'Self-RAG + relevance gate 0.5 (MiniLM)', kind: 'self-rag', opts: { critic: 'minilm', decode: { relevanceGate: 0.5 } } },
};

interface Result {
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
  const modelKey = env('ANSWER_COST_MODEL', 'smollm2') as 'smollm2' | 'gemma';
  const threads = env('ANSWER_COST_THREADS', '1,2').split(',').map(Number);
  const rows = env('ANSWER_COST_ROWS', 'plain,none,self-rag,self-crag').split(',');
  const qs = questions().slice(0, Number(env('ANSWER_COST_QUESTIONS', '4')));
  const models = await loadModels();
  const page = await openPage(models);
  const load0 = loadavg()[0]!;
  try {
    for (const t of threads) {
      const info = await page.call<{ threads: number; isolated: boolean }>('load', modelUrl(REAL[modelKey]), t);
      await page.call('run', 'plain', 'warm up: what is this about?'); // first request pays one-off set-up
      const totals = new Map<string, Result[]>();
      // Rows alternate per question so machine load hits each alike.
      for (const q of qs) {
        for (const key of rows) {
          const row = ROWS[key]!;
          const r = await page.call<Result>('run', row.kind, q.question, row.opts ?? {});
          console.log(`[answer-cost] ${t}t ${key} ${q.id}: ${(r.ms / 1000).toFixed(1)} s, first ${(r.firstMs / 1000).toFixed(1)} s, prefilled ${r.prefill.prefilled}, decoded ${r.prefill.decoded}, candidates ${r.candidates}, skipped ${r.skipped}, gold ${containsAnswer(r.text, q) ? 'yes' : 'no'} | ${r.text.slice(0, 100).replace(/\n/g, ' ')}`);
          totals.set(key, [...(totals.get(key) ?? []), r]);
        }
      }
      const base = totals.get('plain');
      const sum = (rs: Result[], f: (r: Result) => number) => rs.reduce((a, r) => a + f(r), 0);
      console.log(`\n${REAL[modelKey]} · llama.cpp (wllama 3.8.1) ${info.threads} thread${info.threads > 1 ? 's' : ''} (cross-origin isolated: ${info.isolated}) · headless Chromium · ${cpus().length}-core shared machine, load ${load0.toFixed(1)} at start, ${loadavg()[0]!.toFixed(1)} now`);
      console.log(`${qs.length} sample questions (${qs.map((q) => q.id).join(', ')}), sample library, real MiniLM q8 retrieval; medians would need more runs: these are means\n`);
      console.log('| answer | first words s | answer s | × plain (answer) | × plain (first words) | prefill tok/s | decode tok/s | prefilled/q | reused/q | decoded/q | candidates/q | gold in answer |');
      console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
      for (const key of rows) {
        const rs = totals.get(key)!;
        const n = rs.length;
        const ms = sum(rs, (r) => r.ms) / n;
        const first = sum(rs, (r) => r.firstMs) / n;
        const bms = base ? sum(base, (r) => r.ms) / base.length : NaN;
        const bfirst = base ? sum(base, (r) => r.firstMs) / base.length : NaN;
        const p = (f: (r: Result) => number) => sum(rs, f);
        const gold = rs.filter((r, i) => containsAnswer(r.text, qs[i]!)).length;
        console.log(
          `| ${ROWS[key]!.label} | ${(first / 1000).toFixed(1)} | ${(ms / 1000).toFixed(1)} | ${(ms / bms).toFixed(2)} | ${(first / bfirst).toFixed(2)} | ${((p((r) => r.prefill.prefilled) / p((r) => r.prefill.prefillMs)) * 1000).toFixed(0)} | ${((p((r) => r.prefill.decoded) / p((r) => r.prefill.decodeMs)) * 1000).toFixed(1)} | ${(p((r) => r.prefill.prefilled) / n).toFixed(0)} | ${(p((r) => r.prefill.cached) / n).toFixed(0)} | ${(p((r) => r.prefill.decoded) / n).toFixed(0)} | ${(p((r) => r.candidates) / n).toFixed(1)} | ${gold}/${n} |`,
        );
      }
      console.log('');
    }
  } finally {
    await page.close();
  }
}
