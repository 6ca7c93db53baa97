// `npm run index -- --check`: a site owner's questions against a written corpus. Its grading must
// be right: a corpus small enough that the reader's depth covers every list finds the exact top 10
// (recall 1), and one read shallower than that is caught falling short of it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkCorpus, checkReport } from '../../../../scripts/sharded/check-corpus';
import { type ShardedRow, writeSharded } from '../../../../scripts/sharded/write-sharded';
import { mulberry32 } from '../../../../src/core/mulberry32';

const DIM = 64;
const dir = mkdtempSync(join(tmpdir(), 'check-corpus-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const random = mulberry32(5);
const word = () => `w${Math.floor(random() * 400)}`;
const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
// Twenty topics: a passage is its topic's centre plus noise (continuous scores: no ties at the 10th place).
const centres = Array.from({ length: 20 }, () => Float32Array.from({ length: DIM }, gauss));
const near = (c: Float32Array) => Float32Array.from(c, (x) => x + 0.8 * gauss());
const rows: ShardedRow[] = Array.from({ length: 1500 }, (_, i) => ({
  id: `p${i}`,
  docId: `d${Math.floor(i / 5)}`,
  title: `t${i}`,
  text: Array.from({ length: 12 }, word).join(' '),
  index: i % 5,
  embedding: near(centres[i % 20]!),
}));
const questions = Array.from({ length: 40 }, (_, i) => rows[i * 37]!.text.split(' ').slice(0, 5).join(' '));
const vectors = new Float32Array(questions.length * DIM);
questions.forEach((_, i) => vectors.set(near(centres[(i * 7) % 20]!), i * DIM));

describe('checking a corpus on a site’s own questions', () => {
  it('finds the exact top 10 where the reader reads every list, and says what the manifest promised', async () => {
    const out = join(dir, 'all');
    await writeSharded({
      out,
      model: null,
      lists: 12,
      source: {
        rowCount: rows.length,
        rows: async function* () {
          yield* rows;
        },
      },
    });
    const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    // Read every list, every candidate's row: the reader is then exact on the int8 rows the check grades against.
    writeFileSync(
      join(out, 'manifest.json'),
      JSON.stringify({ ...m, probe: { ...m.probe, ntop: m.centroids.tops, nprobe: m.lists.count, rescore: 1500 } }),
    );
    const r = await checkCorpus(out, vectors, questions);
    expect(r.questions).toBe(40);
    expect(r.recall).toBe(1);
    expect(r.meaning.bytes).toHaveLength(40);
    expect(Math.min(...r.both.bytes)).toBeGreaterThan(Math.min(...r.meaning.bytes));
    expect(checkReport(r)).toMatch(/recall@10 against exact search over the corpus's rows: 1\.000/);
    expect(checkReport(r)).toMatch(
      /the manifest promises 0\.\d{3} \(95 % lower bound 0\.\d{3}\), measured on passages/,
    );
  });

  it('catches a corpus read too shallow, and refuses questions of another dimension', async () => {
    const out = join(dir, 'shallow');
    await writeSharded({
      out,
      model: null,
      lists: 12,
      source: {
        rowCount: rows.length,
        rows: async function* () {
          yield* rows;
        },
      },
    });
    const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    writeFileSync(
      join(out, 'manifest.json'),
      JSON.stringify({ ...m, probe: { ...m.probe, ntop: 1, nprobe: 1, rescore: 10, recall: 0.99 } }),
    );
    const r = await checkCorpus(out, vectors, questions);
    expect(r.recall).toBeLessThan(0.9);
    expect(checkReport(r)).toMatch(/short/);
    await expect(checkCorpus(out, new Float32Array(DIM + 3))).rejects.toThrow(/not 64-d vectors/);
  });
});
