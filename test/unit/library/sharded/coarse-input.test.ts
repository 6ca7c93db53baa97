// The sharded writer's coarse structure at scale: list centroids computed elsewhere (faiss in
// the embedding job) handed in as Parquet, with or without each list's top group and each
// passage's list; the hierarchical training and assignment the writer uses when there are
// too many lists for a flat scan; and word buckets scaled down without changing a shard.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexParquet } from '../../../../scripts/index-folder';
import { writeSharded, type ShardedSource } from '../../../../scripts/sharded/write-sharded';
import { decodeCentroidBlock } from '../../../../src/library/sharded/format/centroids';
import { decodeRowRecord, rowRecordBytes } from '../../../../src/library/sharded/format/rows';
import { decodeText } from '../../../../src/library/sharded/format/texts';
import { decodeWordShard, POSTINGS_PER_TERM } from '../../../../src/library/sharded/format/words';
import { idf, termScore } from '../../../../src/library/lexical/bm25';
import { tokenize } from '../../../../src/library/lexical/tokenize';
import { ShardedCorpus } from '../../../../src/library/sharded/reader';
import { embedText } from '../../../doubles/hash-embedder';
import { rangeFetch } from '../../../doubles/range-fetch';
import { TOPICS, topicCorpus, type TopicRow } from '../../../doubles/topic-corpus';

const DIM = 128;
const BASE = 'https://docs.example/corpus/';
const corpusRows = () => topicCorpus(DIM);

const text = (name: string) => ({
  name,
  type: 'BYTE_ARRAY' as const,
  converted_type: 'UTF8' as const,
  repetition_type: 'REQUIRED' as const,
});
// list<float>, as pyarrow writes an embedding column.
const floatList = [
  { name: 'embedding', repetition_type: 'OPTIONAL' as const, converted_type: 'LIST' as const, num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED' as const, num_children: 1 },
  { name: 'element', type: 'FLOAT' as const, repetition_type: 'REQUIRED' as const },
];
const int32 = (name: string) => ({ name, type: 'INT32' as const, repetition_type: 'REQUIRED' as const });

function writePassages(path: string, rows: TopicRow[]): void {
  const withList = rows[0]!.list !== undefined;
  const columnData = [
    { name: 'id', data: rows.map((r) => r.id) },
    { name: 'doc_id', data: rows.map((r) => r.doc_id) },
    { name: 'title', data: rows.map((r) => r.title) },
    { name: 'text', data: rows.map((r) => r.text) },
    { name: 'index', data: rows.map((r) => r.index) },
    { name: 'embedding', data: rows.map((r) => r.embedding) },
    ...(withList ? [{ name: 'list', data: rows.map((r) => r.list!) }] : []),
  ];
  const schema = [
    { name: 'root', num_children: columnData.length },
    text('id'),
    text('doc_id'),
    text('title'),
    text('text'),
    int32('index'),
    ...floatList,
    ...(withList ? [int32('list')] : []),
  ];
  writeFileSync(path, new Uint8Array(parquetWriteBuffer({ columnData, schema, rowGroupSize: 128 })));
}

function writeCentroids(path: string, vectors: number[][], top?: number[]): void {
  const columnData = [{ name: 'embedding', data: vectors }, ...(top ? [{ name: 'top', data: top }] : [])];
  const schema = [{ name: 'root', num_children: columnData.length }, ...floatList, ...(top ? [int32('top')] : [])];
  writeFileSync(path, new Uint8Array(parquetWriteBuffer({ columnData, schema })));
}

/** Each list of a written corpus as the ids of its passages, block (top) by block. */
function listsOf(out: string): Array<{ top: number; ids: string[] }> {
  const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
  const blocks = readFileSync(join(out, 'centroids.bin'));
  const rows = readFileSync(join(out, 'rows.bin'));
  const texts = readFileSync(join(out, 'texts.bin'));
  const rb = rowRecordBytes(m.dim);
  return ShardedCorpus.open(BASE, { fetch: rangeFetch(out, BASE).fetch }).then((corpus) => {
    const { tops } = corpus.index;
    return tops.subs.flatMap((k, t) =>
      decodeCentroidBlock(
        blocks.subarray(tops.offset[t]!, tops.offset[t]! + tops.bytes[t]!),
        k,
        tops.firstList[t]!,
        corpus.shapes,
      ).lists.map((l) => ({
        top: t,
        ids: Array.from({ length: l.count }, (_, i) => {
          const { pointer } = decodeRowRecord(rows.subarray((l.firstRow + i) * rb, (l.firstRow + i + 1) * rb), m.dim);
          return decodeText(texts.subarray(pointer.offset, pointer.offset + pointer.bytes)).id;
        }).sort(),
      })),
    );
  }) as unknown as Array<{ top: number; ids: string[] }>;
}

const groups = (of: (r: TopicRow) => number, rows: TopicRow[]) => {
  const g = new Map<number, string[]>();
  for (const r of rows) g.set(of(r), [...(g.get(of(r)) ?? []), r.id]);
  return [...g.values()].map((ids) => ids.sort());
};
const sortGroups = (gs: string[][]) => gs.map((g) => g.join(',')).sort();

let dir: string;
const rows = corpusRows();
// One centroid a topic: what a k-means in the embedding job might find here.
const centroids = TOPICS.map((t) => [...embedText(`${t} ${t} notes on the ${t}`, DIM)]);
const nearestCentroid = (r: TopicRow) => {
  let best = 0,
    bestScore = -Infinity;
  centroids.forEach((c, i) => {
    const s = c.reduce((a, x, j) => a + x * r.embedding[j]!, 0) / Math.hypot(...c);
    if (s > bestScore) [best, bestScore] = [i, s];
  });
  return best;
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sharded-coarse-'));
  writePassages(join(dir, 'passages.parquet'), rows);
  writeCentroids(join(dir, 'centroids.parquet'), centroids);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('precomputed centroids (--centroids)', () => {
  it('files every passage in the list of its nearest given centroid, groups the lists under tops, and answers', async () => {
    const out = join(dir, 'given');
    const res = await indexParquet({
      parquet: join(dir, 'passages.parquet'),
      centroids: join(dir, 'centroids.parquet'),
      out,
      model: null,
      wordShards: 16,
    });
    expect(res).toMatchObject({ coarse: 'given', lists: 12, passages: 600 });
    expect(res.tops).toBeGreaterThan(1);
    expect(res.tops).toBeLessThan(12);
    const lists = await listsOf(out);
    // Exactly once each, and each list is one given centroid's passages.
    expect(lists.flatMap((l) => l.ids).sort()).toEqual(rows.map((r) => r.id).sort());
    expect(sortGroups(lists.map((l) => l.ids).filter((ids) => ids.length))).toEqual(
      sortGroups(groups(nearestCentroid, rows)),
    );
    const corpus = await ShardedCorpus.open(BASE, { fetch: rangeFetch(out, BASE).fetch });
    const q = 'the desert and item17x4';
    const a = await corpus.search({ vector: embedText(q, DIM), text: q, k: 5 });
    expect(a.problems).toEqual([]);
    expect(a.hits[0]!.passage.id).toBe('doc17#4');
  });

  it('keeps the given top groups: each list in the block of its top', async () => {
    const out = join(dir, 'given-top');
    writeCentroids(
      join(dir, 'centroids-top.parquet'),
      centroids,
      TOPICS.map((_, i) => [7, 3, 11][i % 3]!),
    );
    const res = await indexParquet({
      parquet: join(dir, 'passages.parquet'),
      centroids: join(dir, 'centroids-top.parquet'),
      out,
      model: null,
      wordShards: 16,
    });
    expect(res).toMatchObject({ coarse: 'given', lists: 12, tops: 3 });
    // Tops are numbered in the order of their given ids (3, 7, 11 → blocks 0, 1, 2).
    const block = (r: TopicRow) => [1, 0, 2][nearestCentroid(r) % 3]!;
    for (const l of await listsOf(out))
      for (const id of l.ids) expect(block(rows.find((r) => r.id === id)!)).toBe(l.top);
  });

  it('takes each passage’s list from the `list` column and assigns nothing itself', async () => {
    const out = join(dir, 'given-list');
    // Lists by document number, which no nearest-centroid rule would give.
    const listed = rows.map((r) => ({ ...r, list: Number(r.doc_id.slice(3)) % 5 }));
    writePassages(join(dir, 'passages-list.parquet'), listed);
    const res = await indexParquet({
      parquet: join(dir, 'passages-list.parquet'),
      centroids: join(dir, 'centroids.parquet'),
      out,
      model: null,
      wordShards: 16,
      targetRecall: 0.9,
    });
    expect(res).toMatchObject({ coarse: 'given lists', lists: 12 });
    // The probe depth is measured with the job's lists too, for the recall asked for.
    expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).probe).toMatchObject({
      target: 0.9,
      ntop: res.calibration!.ntop,
    });
    const lists = await listsOf(out);
    expect(lists.flatMap((l) => l.ids)).toHaveLength(600);
    expect(sortGroups(lists.map((l) => l.ids).filter((ids) => ids.length))).toEqual(
      sortGroups(groups((r) => r.list!, listed)),
    );
  });

  it('names the file and row of centroids of the wrong dimension, a list out of range, and a list without centroids', async () => {
    writeCentroids(
      join(dir, 'centroids-64.parquet'),
      centroids.map((c) => c.slice(0, 64)),
    );
    await expect(
      indexParquet({
        parquet: join(dir, 'passages.parquet'),
        centroids: join(dir, 'centroids-64.parquet'),
        out: join(dir, 'e1'),
        model: null,
      }),
    ).rejects.toThrow(
      `${join(dir, 'centroids-64.parquet')}: the centroids are 64-d but passage doc0#0 has a 128-d embedding`,
    );
    writeCentroids(
      join(dir, 'centroids-ragged.parquet'),
      centroids.map((c, i) => (i === 5 ? c.slice(0, 100) : c)),
    );
    await expect(
      indexParquet({
        parquet: join(dir, 'passages.parquet'),
        centroids: join(dir, 'centroids-ragged.parquet'),
        out: join(dir, 'e2'),
        model: null,
      }),
    ).rejects.toThrow(`${join(dir, 'centroids-ragged.parquet')} row 5: a 100-d centroid, the first is 128-d`);
    writePassages(
      join(dir, 'passages-bad-list.parquet'),
      rows.map((r, i) => ({ ...r, list: i === 137 ? 12 : 0 })),
    );
    await expect(
      indexParquet({
        parquet: join(dir, 'passages-bad-list.parquet'),
        centroids: join(dir, 'centroids.parquet'),
        out: join(dir, 'e3'),
        model: null,
      }),
    ).rejects.toThrow(
      `${join(dir, 'passages-bad-list.parquet')} row 137: passage doc13#7 is in list 12, out of range (${join(dir, 'centroids.parquet')} has 12 lists, 0 to 11)`,
    );
    await expect(
      indexParquet({ parquet: join(dir, 'passages-bad-list.parquet'), out: join(dir, 'e4'), model: null }),
    ).rejects.toThrow(
      `${join(dir, 'passages-bad-list.parquet')} has a \`list\` column (each passage's IVF list), which indexes a centroids file: give it with --centroids <centroids.parquet>`,
    );
  });
});

const source: ShardedSource = {
  rowCount: rows.length,
  rows: async function* () {
    for (const r of rows)
      yield {
        id: r.id,
        docId: r.doc_id,
        title: r.title,
        text: r.text,
        index: r.index,
        embedding: Float32Array.from(r.embedding),
      };
  },
};

describe('hierarchical training and assignment', () => {
  it('places every passage in exactly one list, and a passage is found by its own vector', async () => {
    const out = join(dir, 'hier');
    const res = await writeSharded({
      out,
      model: null,
      source,
      flat: false,
      lists: 24,
      tops: 6,
      assignTops: 2,
      wordShards: 16,
    });
    expect(res.coarse).toBe('hierarchical');
    expect(res.lists).toBeGreaterThanOrEqual(18);
    const lists = await listsOf(out);
    expect(lists.flatMap((l) => l.ids).sort()).toEqual(rows.map((r) => r.id).sort());
    const corpus = await ShardedCorpus.open(BASE, { fetch: rangeFetch(out, BASE).fetch });
    for (const r of rows.filter((_, i) => i % 40 === 7)) {
      const a = await corpus.search({
        vector: Float32Array.from(r.embedding),
        text: '',
        k: 1,
        ntop: 2,
        nprobe: 4,
        mode: 'meaning',
      });
      expect(a.problems).toEqual([]);
      expect(a.hits[0]!.passage.id).toBe(r.id);
    }
  });
});

describe('word buckets', () => {
  it('writes the same word shards and table from many small buckets as from one', async () => {
    const one = await writeSharded({
      out: join(dir, 'one-bucket'),
      model: null,
      source,
      lists: 12,
      wordShards: 16,
      wordPage: 4,
      wordBucketBytes: 1e12,
    });
    const many = await writeSharded({
      out: join(dir, 'many-buckets'),
      model: null,
      source,
      lists: 12,
      wordShards: 16,
      wordPage: 4,
      wordBucketBytes: 4000,
    });
    expect(one.wordBuckets).toBe(1);
    expect(many.wordBuckets).toBe(16);
    expect(many.largestBucket).toBeLessThan(one.largestBucket / 2);
    for (const f of ['words.bin', 'wordtable.bin', 'index.bin'])
      expect(readFileSync(join(dir, 'many-buckets', f)).equals(readFileSync(join(dir, 'one-bucket', f)))).toBe(true);
  });

  it('keeps a common word’s best postings by BM25 weight when it has more than a bucket keeps', async () => {
    // 1,000 passages with "common" in each, at different frequencies and lengths: more than twice
    // the postings a term keeps while its bucket is read, so the running cut is exercised.
    const many = Array.from({ length: 1000 }, (_, i) => ({
      id: `m${i}`,
      docId: `m${i}`,
      title: `t${i}`,
      index: 0,
      text: `${'common '.repeat(1 + (i % 7))}${Array.from({ length: 1 + ((i * 7) % 23) }, (_, j) => `filler${i}w${j}`).join(' ')}`,
      embedding: Float32Array.from(embedText(`m${i}`, DIM)),
    }));
    const res = await writeSharded({
      out: join(dir, 'common'),
      model: null,
      lists: 8,
      wordShards: 1,
      wordBucketBytes: 1e12,
      source: {
        rowCount: many.length,
        rows: async function* () {
          yield* many;
        },
      },
    });
    expect(res.wordBuckets).toBe(1);
    const kept = decodeWordShard(readFileSync(join(dir, 'common', 'words.bin'))).common!;
    const lengths = many.map((r) => tokenize(`${r.title}\n${r.text}`));
    // Lengths in distinct terms, as the in-tab index counts them.
    const distinct = lengths.map((t) => new Set(t).size);
    const avg = distinct.reduce((a, l) => a + l, 0) / many.length;
    const expected = lengths
      .map((t, i) =>
        Math.round(
          1000 * termScore(idf(many.length, many.length), t.filter((w) => w === 'common').length, distinct[i]!, avg),
        ),
      )
      .sort((a, b) => b - a)
      .slice(0, POSTINGS_PER_TERM);
    expect(kept.df).toBe(1000);
    expect(kept.p.map((p) => p[3])).toEqual(expected);
  });
});
