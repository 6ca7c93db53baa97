// Parquet as the README's embedding recipe really writes it, not as our own test writer does:
// the files under test/fixtures/parquet-pyarrow were made by make.py beside them on a GPU
// machine (pandas 3.0, pyarrow 25, sentence-transformers 6 on CUDA): large_string columns,
// list<double> embeddings, snappy pages, pandas metadata, a part folder with small row groups,
// one part carrying the pandas index as `__index_level_0__`, and centroids as list<float>
// with an int32 `list` column on the passages.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexParquet } from '../../../../scripts/index-folder';
import { parquetSource } from '../../../../scripts/sharded/parquet-source';
import type { ShardedRow } from '../../../../scripts/sharded/write-sharded';
import { decodeCentroidBlock } from '../../../../src/library/sharded/format/centroids';
import { ShardedCorpus } from '../../../../src/library/sharded/reader';
import { rangeFetch } from '../../../doubles/range-fetch';

const FIXTURES = join(__dirname, '../../../fixtures/parquet-pyarrow');
const BASE = 'https://docs.example/corpus/';
const SAMPLE_PARAGRAPHS = 22;

describe('Parquet written by pyarrow from pandas (the embedding recipe)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'parquet-pyarrow-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads every row of the part folder, with its text, title, position and embedding intact', async () => {
    const rows = [];
    for await (const r of (await parquetSource(join(FIXTURES, 'embedded'))).rows()) rows.push(r);
    expect(rows).toHaveLength(SAMPLE_PARAGRAPHS + 4);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    expect(rows.every((r) => r.embedding.length === 32 && Math.abs(Math.hypot(...r.embedding) - 1) < 1e-5)).toBe(true);
    const unicode = rows.find((r) => r.id === 'extra-0')!;
    expect(unicode).toMatchObject({ docId: 'extra', title: 'Unicode ✓', index: 0 });
    expect(unicode.text).toBe('Ünïcödé: naïve café, Straße, Ελληνικά, русский, 日本語の文章、中文段落。');
    expect(rows.find((r) => r.id === 'extra-1')!.text).toBe('Emoji 🐝🍞🌊 and a zero-width\u200bjoiner');
    const bees = rows.filter((r) => r.docId === 'honeybees');
    expect(bees.map((r) => r.index)).toEqual(bees.map((_, i) => i));
    expect(bees[0]!.title).toBe('How Honeybee Colonies Work');
    expect(readFileSync('public/sample/honeybees.md', 'utf8')).toContain(bees[0]!.text);
  });

  it('becomes a sharded corpus that answers by meaning and by words', async () => {
    const out = join(dir, 'embedded');
    const res = await indexParquet({ parquet: join(FIXTURES, 'embedded'), out, model: null });
    expect(res.passages).toBe(SAMPLE_PARAGRAPHS + 4);
    const corpus = await ShardedCorpus.open(BASE, { fetch: rangeFetch(out, BASE).fetch });
    // A passage's own embedding finds it first.
    let first: ShardedRow | undefined;
    for await (const r of (await parquetSource(join(FIXTURES, 'embedded'))).rows()) {
      first = r;
      break;
    }
    if (!first) throw new Error('no rows');
    const byMeaning = await corpus.search({ vector: first.embedding, text: '', k: 3, mode: 'meaning' });
    expect(byMeaning.problems).toEqual([]);
    expect(byMeaning.hits[0]!.passage).toMatchObject({ id: first.id, text: first.text });
    // The question the same model embedded: the corpus answers it with both rankings fused.
    const q = JSON.parse(readFileSync(join(FIXTURES, 'query.json'), 'utf8')) as {
      question: string;
      embedding: number[];
    };
    const both = await corpus.search({ vector: Float32Array.from(q.embedding), text: q.question, k: 5, mode: 'both' });
    expect(both.hits.length).toBe(5);
    expect(both.hits[0]!.passage.docId).toBe('honeybees');
    const words = await corpus.search({ vector: null, text: 'Straße café', k: 3, mode: 'words' });
    expect(words.hits[0]!.passage.id).toBe('extra-0');
  });

  it('files each passage in the list its `list` column names, under the job’s centroids', async () => {
    const out = join(dir, 'listed');
    const res = await indexParquet({
      parquet: join(FIXTURES, 'listed.parquet'),
      centroids: join(FIXTURES, 'centroids.parquet'),
      out,
      model: null,
    });
    expect(res).toMatchObject({ coarse: 'given lists', lists: 6, passages: SAMPLE_PARAGRAPHS + 4 });
    const byList = new Map<number, string[]>();
    for await (const r of (await parquetSource(join(FIXTURES, 'listed.parquet'), { lists: 6 })).rows())
      byList.set(r.list!, [...(byList.get(r.list!) ?? []), r.id]);
    const corpus = await ShardedCorpus.open(BASE, { fetch: rangeFetch(out, BASE).fetch });
    const total = corpus.index.tops.subs.reduce((a, b) => a + b, 0);
    expect(total).toBe(6);
    // Each non-empty list holds as many passages as the job filed there.
    const counts = [...byList.values()].map((ids) => ids.length).sort((a, b) => a - b);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(SAMPLE_PARAGRAPHS + 4);
    const blocks = readFileSync(join(out, 'centroids.bin'));
    const { tops } = corpus.index;
    const listed = tops.subs.flatMap((k, t) =>
      decodeCentroidBlock(
        blocks.subarray(tops.offset[t]!, tops.offset[t]! + tops.bytes[t]!),
        k,
        tops.firstList[t]!,
        corpus.shapes,
      ).lists.map((l) => l.count),
    );
    expect(listed.filter((c) => c > 0).sort((a, b) => a - b)).toEqual(counts);
  });
});
