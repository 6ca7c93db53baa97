// Without questions from the site, the writer chooses its reading depth on pseudo-questions: the
// first sentence of sampled passages, embedded as the page embeds questions, with their own
// document left out of both the true neighbours and the candidates (as a held-out document's
// question would meet the corpus). The manifest says what the depth was measured on.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NeighbourTracker } from '../../../../scripts/sharded/calibrate';
import { firstSentence } from '../../../../scripts/sharded/pseudo-questions';
import { type ShardedRow, writeSharded } from '../../../../scripts/sharded/write-sharded';
import { signShape } from '../../../../src/library/sharded/format/codes';
import { codeBasis } from '../../../../src/library/sharded/probe';
import { embedText } from '../../../doubles/hash-embedder';

const DIM = 8;
const unit = (xs: number[]) => {
  const n = Math.hypot(...xs);
  return Float32Array.from(xs, (x) => x / n);
};
const dir = mkdtempSync(join(tmpdir(), 'pseudo-questions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('pseudo-questions', () => {
  it('are a passage’s first sentence of 30 to 300 characters, whitespace folded', () => {
    expect(firstSentence('The eastern valve opens at dawn.\nIt closes at dusk.')).toBe(
      'The eastern valve opens at dawn.',
    );
    expect(firstSentence('  Several   words\nacross lines, then a stop! And more.')).toBe(
      'Several words across lines, then a stop!',
    );
    // A first sentence under 30 characters runs on to the next stop (as the benches' held-out questions do).
    expect(firstSentence('Too short. Then a long enough second sentence here. Third.')).toBe(
      'Too short. Then a long enough second sentence here.',
    );
    expect(firstSentence('no sentence end at all in this passage text')).toBeNull();
  });

  it('leave their whole document out of the true neighbours, and keep its passages as candidates to discount', () => {
    const question = unit([1, 0.1, 0, 0, 0, 0, 0, 0]);
    const basis = codeBasis(
      DIM,
      { list: signShape(DIM), sub: signShape(DIM) },
      new Float32Array(DIM),
      new Float32Array(DIM).fill(1),
      null,
    );
    const tracker = new NeighbourTracker(question, DIM, basis, [{ docId: 'guide', index: 5 }], 'document');
    const code = new Uint8Array(signShape(DIM).bytes);
    tracker.add(unit([1, 0.11, 0, 0, 0, 0, 0, 0]), 3, code, 0, { docId: 'guide', index: 2 }); // same document, far chunk
    tracker.add(unit([1, 0.12, 0, 0, 0, 0, 0, 0]), 4, code, 0, { docId: 'guide', index: 5 }); // its own passage
    for (let i = 0; i < 12; i++)
      tracker.add(unit([1, 0.3 + i / 10, 0.2, 0, 0, 0, 0, 0]), 10 + i, code, 0, { docId: `other-${i}`, index: 0 });
    expect(
      tracker
        .neighbours(0)
        .map((n) => n.list)
        .sort((a, b) => a - b),
    ).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    expect(tracker.ownPassages(0).map((n) => n.list)).toEqual([3, 4]);
  });

  it('are what the writer calibrates on when it can embed questions, and the manifest says so', async () => {
    const rows: ShardedRow[] = Array.from({ length: 600 }, (_, i) => {
      const text = `Document ${Math.floor(i / 6)} talks about topic ${i % 37} and item ${i}. More words follow here.`;
      return {
        id: `p${i}`,
        docId: `d${Math.floor(i / 6)}`,
        title: `t${i}`,
        text,
        index: i % 6,
        embedding: Float32Array.from(embedText(text, 32)),
      };
    });
    const asked: string[] = [];
    const write = (out: string, embed?: (t: string[]) => Promise<Float32Array[]>) =>
      writeSharded({
        out,
        model: null,
        source: {
          rowCount: rows.length,
          rows: async function* () {
            yield* rows;
          },
        },
        ...(embed ? { embedQuestions: embed } : {}),
      });
    const pseudo = await write(join(dir, 'pseudo'), async (texts) => {
      asked.push(...texts);
      return texts.map((t) => Float32Array.from(embedText(t, 32)));
    });
    expect(pseudo.calibratedOn).toBe('pseudo-questions');
    // The sentences asked for are the passages' first sentences.
    expect(asked.length).toBeGreaterThan(100);
    for (const t of asked) expect(t).toMatch(/^Document \d+ talks about topic \d+ and item \d+\.$/);
    const m = JSON.parse(readFileSync(join(dir, 'pseudo', 'manifest.json'), 'utf8'));
    expect(m.probe).toMatchObject({ on: 'pseudo-questions', queries: asked.length });

    // An embedder that fails: the writer says why and falls back to held-out passages.
    const lines: string[] = [];
    const failed = await writeSharded({
      out: join(dir, 'fallback'),
      model: null,
      source: {
        rowCount: rows.length,
        rows: async function* () {
          yield* rows;
        },
      },
      embedQuestions: () => Promise.reject(new Error('no model here')),
      log: (l) => lines.push(l),
    });
    expect(failed.calibratedOn).toBe('passages');
    expect(lines.some((l) => l.includes('could not embed pseudo-questions (no model here)'))).toBe(true);
    expect((await write(join(dir, 'plain'))).calibratedOn).toBe('passages');
  });
});
