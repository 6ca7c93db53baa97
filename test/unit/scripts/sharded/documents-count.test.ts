// Spark and Ray Data write rows in no particular order: a document's passages need not arrive
// together, and the corpus must still say how many documents it holds (the page shows it).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeSharded, type ShardedRow } from '../../../../scripts/sharded/write-sharded';
import { mulberry32 } from '../../../../src/core/mulberry32';

const dir = mkdtempSync(join(tmpdir(), 'sharded-docs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the sharded corpus’s document count', () => {
  it('counts each document once when its passages are scattered through the input', async () => {
    const rand = mulberry32(3);
    const rows: ShardedRow[] = Array.from({ length: 300 }, (_, i) => ({
      id: `p${i}`,
      docId: `doc-${i % 30}`, // interleaved, as a shuffled Parquet part gives them
      title: `Document ${i % 30}`,
      text: `passage ${Math.floor(i / 30)} of document ${i % 30}`,
      index: Math.floor(i / 30),
      embedding: Float32Array.from({ length: 16 }, () => rand() - 0.5),
    }));
    await writeSharded({
      out: join(dir, 'corpus'),
      model: 'test-model',
      source: {
        rowCount: rows.length,
        async *rows() {
          yield* rows;
        },
      },
    });
    const manifest = JSON.parse(readFileSync(join(dir, 'corpus', 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ passages: 300, documents: 30 });
  });
});
