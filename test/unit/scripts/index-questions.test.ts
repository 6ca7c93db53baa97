// `npm run index -- … --questions <file>`: the questions the writer measures its reading depth
// on come as text (embedded here as the page embeds questions) or already embedded in Parquet.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, describe, expect, it } from 'vitest';
import { calibrationQuestions } from '../../../scripts/index-folder';
import type { LoadedEmbedder } from '../../../workers/evaluator/embedder';

const dir = mkdtempSync(join(tmpdir(), 'index-questions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Records what it was asked to embed; each text becomes [its length, 1]. */
function recordingEmbedder() {
  const asked: string[][] = [];
  const e = {
    embedQueries: async (texts: string[]) => {
      asked.push(texts);
      return texts.map((t) => Float32Array.of(t.length, 1));
    },
  } as unknown as LoadedEmbedder;
  return { asked, embedder: () => e };
}

describe('calibration questions for the sharded writer', () => {
  it('embeds a text file’s questions, one a line, as questions (blank lines skipped)', async () => {
    const path = join(dir, 'questions.txt');
    writeFileSync(path, 'How do I pin a package?\n\n  What does apt-mark hold do?  \n');
    const { asked, embedder } = recordingEmbedder();
    const vs = await calibrationQuestions(path, embedder);
    expect(asked).toEqual([['How do I pin a package?', 'What does apt-mark hold do?']]);
    expect(Array.from(vs)).toEqual([23, 1, 27, 1]);
  });

  it('reads embedded questions from Parquet without loading a model', async () => {
    const path = join(dir, 'questions.parquet');
    const schema = [
      { name: 'root', num_children: 1 },
      { name: 'embedding', repetition_type: 'OPTIONAL' as const, converted_type: 'LIST' as const, num_children: 1 },
      { name: 'list', repetition_type: 'REPEATED' as const, num_children: 1 },
      { name: 'element', type: 'FLOAT' as const, repetition_type: 'REQUIRED' as const },
    ];
    const columnData = [
      {
        name: 'embedding',
        data: [
          [0.6, 0.8, 0],
          [0, 0, 1],
        ],
      },
    ];
    writeFileSync(path, new Uint8Array(parquetWriteBuffer({ columnData, schema })));
    const { asked, embedder } = recordingEmbedder();
    const vs = await calibrationQuestions(path, embedder);
    expect(asked).toEqual([]);
    expect(Array.from(vs).map((x) => Math.round(x * 10) / 10)).toEqual([0.6, 0.8, 0, 0, 0, 1]);
  });

  it('says what is wrong with an empty file or a Parquet file without embeddings', async () => {
    const empty = join(dir, 'empty.txt');
    writeFileSync(empty, '\n  \n');
    await expect(calibrationQuestions(empty, recordingEmbedder().embedder)).rejects.toThrow(/holds no questions/);
    const noEmbedding = join(dir, 'texts.parquet');
    writeFileSync(
      noEmbedding,
      new Uint8Array(
        parquetWriteBuffer({
          columnData: [{ name: 'text', data: ['a question'] }],
          schema: [
            { name: 'root', num_children: 1 },
            { name: 'text', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
          ],
        }),
      ),
    );
    await expect(calibrationQuestions(noEmbedding, recordingEmbedder().embedder)).rejects.toThrow(
      /needs an `embedding` column \(it has text\)/,
    );
  });
});
