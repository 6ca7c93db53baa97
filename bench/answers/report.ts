// The accuracy table from the answers bench's records (its JSONL log), one row per configuration:
//   npx tsx bench/answers/report.ts test-output/answers/qwen05.jsonl [plain,adaptive]
// (the optional rows keep a table to the questions those rows answered, when another row ran on fewer)
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { paired } from './paired';
import { ROW_NAMES, type Row } from './rows';

export interface AnswerRecord {
  model: string;
  threads: number;
  row: Row;
  id: string;
  kind: string;
  split: string;
  question: string;
  text: string;
  /** The written answer holds a gold answer. */
  gold: boolean;
  /** Passages cited, and how many of them hold the answer. */
  cited: number;
  citedHolding: number;
  /** Some passage the answer was written from holds the answer (retrieval found it). */
  retrievedHolding: boolean;
  /** What the page shows repeats the prompt's own words. */
  formText: boolean;
  /** Nothing written was an answer: the page shows the evidence. */
  noAnswer: boolean;
  withheld: string[];
  candidates: number;
  ms: number;
  firstMs: number | null;
}

const pct = (n: number, d: number): string => (d ? `${((100 * n) / d).toFixed(1)} %` : '–');
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : Number.NaN;
};

/** The table, each figure over the questions every row answered. */
export function printReport(records: AnswerRecord[]): void {
  const rows = [...new Set(records.map((r) => r.row))];
  const ids = [...new Set(records.map((r) => r.id))].filter((id) =>
    rows.every((row) => records.some((r) => r.id === id && r.row === row)),
  );
  const models = [...new Set(records.map((r) => r.model))].join(', ');
  console.log(`\n${models}: ${ids.length} questions answered by every row (${records[0]?.threads ?? '?'} threads)\n`);
  console.log(
    '| answer | gold in answer | citation precision | retrieval holds the answer | no answer (evidence shown) | form text shown | candidates withheld: form / repeat / declined / cut off / unread | candidates / question | median s (native llama.cpp) |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---|---:|---:|');
  for (const row of rows) {
    const rs = records.filter((r) => r.row === row && ids.includes(r.id));
    const cited = rs.reduce((n, r) => n + r.cited, 0);
    const holding = rs.reduce((n, r) => n + r.citedHolding, 0);
    const count = (reason: string) => rs.reduce((n, r) => n + r.withheld.filter((w) => w === reason).length, 0);
    console.log(
      `| ${ROW_NAMES[row] ?? row} | ${pct(rs.filter((r) => r.gold).length, rs.length)} | ${pct(holding, cited)} | ${pct(rs.filter((r) => r.retrievedHolding).length, rs.length)} | ${rs.filter((r) => r.noAnswer).length} | ${rs.filter((r) => r.formText).length} | ${['form-text', 'repeat', 'declined', 'cut-off', 'unread'].map(count).join(' / ')} | ${(rs.reduce((n, r) => n + r.candidates, 0) / rs.length).toFixed(1)} | ${(median(rs.map((r) => r.ms)) / 1000).toFixed(1)} |`,
    );
  }
  printPaired(records, rows, ids);
}

/** Each row against plain RAG on the same questions: wins, losses, McNemar's exact p; and by kind. */
function printPaired(records: AnswerRecord[], rows: Row[], ids: string[]): void {
  if (!rows.includes('plain')) return;
  const gold = (row: Row) =>
    new Map(records.filter((r) => r.row === row && ids.includes(r.id)).map((r) => [r.id, r.gold] as const));
  const base = gold('plain');
  console.log(
    '\n| against plain RAG | gold, row − plain (points) | wins | losses | McNemar exact p | questions won / lost |',
  );
  console.log('|---|---:|---:|---:|---:|---|');
  for (const row of rows.filter((r) => r !== 'plain')) {
    const c = paired(gold(row), base);
    const points = (100 * (c.wins.length - c.losses.length)) / Math.max(1, c.n);
    console.log(
      `| ${ROW_NAMES[row] ?? row} | ${points >= 0 ? '+' : ''}${points.toFixed(1)} | ${c.wins.length} | ${c.losses.length} | ${c.p.toPrecision(2)} | ${c.wins.join(' ') || '–'} / ${c.losses.join(' ') || '–'} |`,
    );
  }
  const kinds = [...new Set(records.map((r) => r.kind))];
  console.log(
    `\nBy kind of document (gold in answer): ${kinds
      .map((kind) => {
        const of = (row: Row) => records.filter((r) => r.row === row && r.kind === kind && ids.includes(r.id));
        return `${kind}: ${rows.map((row) => `${row} ${of(row).filter((r) => r.gold).length}/${of(row).length}`).join(', ')}`;
      })
      .join('; ')}`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const records = readFileSync(process.argv[2]!, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as AnswerRecord | { error: string; row: Row; id: string });
  // A failed answer is logged with its error: counted apart, never as a row's answer.
  const failed = records.filter((r) => 'error' in r);
  if (failed.length)
    console.log(`${failed.length} answers failed: ${failed.map((r) => `${r.id} ${r.row}`).join(', ')}`);
  const rows = process.argv[3]?.split(',');
  printReport(records.filter((r): r is AnswerRecord => !('error' in r) && (!rows || rows.includes(r.row))));
}
