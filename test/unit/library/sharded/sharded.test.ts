// The sharded static corpus end to end in Node: a Parquet file the test writes is turned
// into the sharded format by `npm run index -- --parquet`'s code, then read through a
// fetch that serves byte ranges from the folder, as a static host would.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexParquet } from '../../../../scripts/index-folder';
import { MemoryBlockCache } from '../../../../src/library/sharded/block-cache';
import { decodeCentroidBlock } from '../../../../src/library/sharded/format/centroids';
import { decodeRowRecord, rowRecordBytes } from '../../../../src/library/sharded/format/rows';
import { decodeText } from '../../../../src/library/sharded/format/texts';
import { ShardedCorpus } from '../../../../src/library/sharded/reader';
import { DEFAULT_CODES, writeSharded } from '../../../../scripts/sharded/write-sharded';
import { embedText } from '../../../doubles/hash-embedder';
import { rangeFetch } from '../../../doubles/range-fetch';
import { topicCorpus } from '../../../doubles/topic-corpus';

const DIM = 128;
const BASE = 'https://docs.example/sub/path/corpus/';
const corpusRows = () => topicCorpus(DIM);

function writeParquet(path: string, rows: ReturnType<typeof corpusRows>, withEmbedding = true): void {
  const columns = [
    { name: 'id', data: rows.map((r) => r.id) },
    { name: 'doc_id', data: rows.map((r) => r.doc_id) },
    { name: 'title', data: rows.map((r) => r.title) },
    { name: 'text', data: rows.map((r) => r.text) },
    { name: 'index', data: rows.map((r) => r.index) },
    ...(withEmbedding ? [{ name: 'embedding', data: rows.map((r) => r.embedding) }] : []),
  ];
  const schema = [
    { name: 'root', num_children: columns.length },
    { name: 'id', type: 'BYTE_ARRAY' as const, converted_type: 'UTF8' as const, repetition_type: 'REQUIRED' as const },
    {
      name: 'doc_id',
      type: 'BYTE_ARRAY' as const,
      converted_type: 'UTF8' as const,
      repetition_type: 'REQUIRED' as const,
    },
    {
      name: 'title',
      type: 'BYTE_ARRAY' as const,
      converted_type: 'UTF8' as const,
      repetition_type: 'REQUIRED' as const,
    },
    {
      name: 'text',
      type: 'BYTE_ARRAY' as const,
      converted_type: 'UTF8' as const,
      repetition_type: 'REQUIRED' as const,
    },
    { name: 'index', type: 'INT32' as const, repetition_type: 'REQUIRED' as const },
    // list<float>, as Spark, Ray Data and Dask (pyarrow) write an embedding column.
    ...(withEmbedding
      ? [
          { name: 'embedding', repetition_type: 'OPTIONAL' as const, converted_type: 'LIST' as const, num_children: 1 },
          { name: 'list', repetition_type: 'REPEATED' as const, num_children: 1 },
          { name: 'element', type: 'FLOAT' as const, repetition_type: 'REQUIRED' as const },
        ]
      : []),
  ];
  // Small row groups, so the reader streams several.
  writeFileSync(path, new Uint8Array(parquetWriteBuffer({ columnData: columns, schema, rowGroupSize: 128 })));
}

let dir: string;
let out: string;
const question = 'the desert and item17x4';
const queryVector = () => embedText(question, DIM);
const open = (f: ReturnType<typeof rangeFetch>, cache = new MemoryBlockCache()) =>
  ShardedCorpus.open(BASE, { fetch: f.fetch, cache });
const FILES = [
  'manifest.json',
  'index.bin',
  'centroids.bin',
  'lists.bin',
  'rows.bin',
  'texts.bin',
  'wordtable.bin',
  'words.bin',
];
const totalBytes = () => FILES.reduce((s, f) => s + statSync(join(out, f)).size, 0);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sharded-'));
  out = join(dir, 'corpus');
  writeParquet(join(dir, 'passages.parquet'), corpusRows());
  await indexParquet({
    parquet: join(dir, 'passages.parquet'),
    out,
    model: 'Xenova/all-MiniLM-L6-v2',
    lists: 24,
    wordShards: 16,
  });
});
afterAll(() => process.env.KEEP || rmSync(dir, { recursive: true, force: true }));

describe('sharded corpus from Parquet', () => {
  it('streams every row of the Parquet file into the lists, rows and word shards, behind a manifest of a few hundred bytes', async () => {
    const m = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(m).toMatchObject({
      format: 'selfrag-sharded',
      version: 6,
      codec: 'rabitq+int8',
      codes: { kind: 'rabitq', bits: DEFAULT_CODES.kind === 'rabitq' ? DEFAULT_CODES.bits : 0 },
      model: 'Xenova/all-MiniLM-L6-v2',
      dim: DIM,
      passages: 600,
      documents: 60,
    });
    // About the lists asked for (each top cell gets its share), under fewer top centroids.
    expect(m.lists.count).toBeGreaterThanOrEqual(18);
    expect(m.lists.count).toBeLessThanOrEqual(30);
    expect(m.centroids.tops).toBeLessThan(m.lists.count);
    expect(m.words.count).toBe(16);
    // The block tables live in the binary files, so the manifest does not grow with the corpus.
    expect(statSync(join(out, 'manifest.json')).size).toBeLessThan(1024);
    const corpus = await open(rangeFetch(out, BASE));
    // Every passage is in exactly one list of one top's block.
    const blocks = readFileSync(join(out, 'centroids.bin'));
    const { tops } = corpus.index;
    const lists = tops.subs.flatMap(
      (k, t) =>
        decodeCentroidBlock(
          blocks.subarray(tops.offset[t]!, tops.offset[t]! + tops.bytes[t]!),
          k,
          tops.firstList[t]!,
          corpus.shapes,
        ).lists,
    );
    expect(lists.map((l) => l.c)).toEqual(Array.from({ length: m.lists.count }, (_, c) => c));
    expect(lists.reduce((a, l) => a + l.count, 0)).toBe(600);
    expect(statSync(join(out, 'rows.bin')).size).toBe(600 * rowRecordBytes(DIM));
    // Opening costs the manifest and the start-up block, nothing else.
    expect(corpus.startup.requests).toBe(2);
    expect(corpus.startup.bytes).toBe(
      statSync(join(out, 'manifest.json')).size + statSync(join(out, 'index.bin')).size,
    );
  });

  it('answers a question with the passage that holds its words, fetching a fraction of the corpus, and nothing the second time', async () => {
    const host = rangeFetch(out, BASE);
    const corpus = await open(host);
    const first = await corpus.search({ vector: queryVector(), text: question, k: 5, nprobe: 3 });
    expect(first.problems).toEqual([]);
    expect(first.hits[0]!.passage).toMatchObject({ id: 'doc17#4', docId: 'doc17', title: 'desert 17', index: 4 });
    expect(first.hits[0]!.passage.text).toContain('item17x4');
    // Every request asked for a range, and together they are well under the corpus.
    expect(host.requests.slice(1).every((r) => r.range !== null)).toBe(true);
    expect(host.sent()).toBeLessThan(totalBytes() / 3);
    const before = host.requests.length;
    const again = await corpus.search({ vector: queryVector(), text: question, k: 5, nprobe: 3 });
    expect(host.requests.length).toBe(before);
    expect(again.stats.requests).toBe(0);
    expect(again.hits.map((h) => h.id)).toEqual(first.hits.map((h) => h.id));
  });

  it('answers the same question offline from the blocks one visit cached', async () => {
    const cache = new MemoryBlockCache();
    const online = await (await open(rangeFetch(out, BASE), cache)).search({
      vector: queryVector(),
      text: question,
      k: 5,
      nprobe: 3,
    });
    const offline = rangeFetch(out, BASE, { failWhen: () => true });
    const corpus = await open(offline, cache);
    const res = await corpus.search({ vector: queryVector(), text: question, k: 5, nprobe: 3 });
    expect(res.problems).toEqual([]);
    expect(res.hits.map((h) => h.passage.id)).toEqual(online.hits.map((h) => h.passage.id));
  });

  it('refuses a corrupt list block by name and still answers from the rest', async () => {
    const copy = join(dir, 'corrupt');
    rmSync(copy, { recursive: true, force: true });
    await indexParquet({ parquet: join(dir, 'passages.parquet'), out: copy, model: null, lists: 24, wordShards: 16 });
    const corpus = await open(rangeFetch(copy, BASE));
    const q = queryVector();
    const [target] = (await corpus.nearestLists(q, 1)).lists;
    const lists = readFileSync(join(copy, 'lists.bin'));
    lists[target!.offset + 10]! ^= 0xff;
    writeFileSync(join(copy, 'lists.bin'), lists);
    const res = await corpus.search({ vector: q, text: question, k: 5, nprobe: 3 });
    expect(res.problems).toEqual([
      `list ${target!.c} of lists.bin is corrupt (its SHA-256 does not match the one it was written with); it was skipped`,
    ]);
    // The word shard still finds the passage by its rare word.
    expect(res.hits.map((h) => h.passage.id)).toContain('doc17#4');
  });

  it('refuses a corrupt sub-centroid block by name, probes the other tops, and still answers', async () => {
    const copy = join(dir, 'corrupt-centroids');
    rmSync(copy, { recursive: true, force: true });
    await indexParquet({ parquet: join(dir, 'passages.parquet'), out: copy, model: null, lists: 24, wordShards: 16 });
    const corpus = await open(rangeFetch(copy, BASE));
    const q = queryVector();
    const [top] = corpus.nearestTops(q, 1);
    const blocks = readFileSync(join(copy, 'centroids.bin'));
    blocks[corpus.index.tops.offset[top!]! + 20]! ^= 0xff;
    writeFileSync(join(copy, 'centroids.bin'), blocks);
    const res = await corpus.search({ vector: q, text: question, k: 5, nprobe: 3, ntop: 3 });
    expect(res.problems).toEqual([
      `centroid block ${top} of centroids.bin is corrupt (its SHA-256 does not match the one it was written with); its lists were skipped`,
    ]);
    // The other two tops' lists were probed, and the word shard finds the passage by its rare word.
    const meaning = await corpus.search({ vector: q, text: question, k: 5, nprobe: 3, ntop: 3, mode: 'meaning' });
    expect(meaning.hits).toHaveLength(5);
    expect(res.hits.map((h) => h.passage.id)).toContain('doc17#4');
    // Read with every other block in one shared range request: still refused alone, the rest kept.
    const host = rangeFetch(copy, BASE);
    const fresh = await open(host);
    const before = host.requests.length;
    const all = await fresh.search({
      vector: q,
      text: question,
      k: 5,
      nprobe: 3,
      ntop: fresh.index.tops.subs.length,
      mode: 'meaning',
    });
    expect(host.requests.slice(before).filter((x) => x.url.endsWith('centroids.bin'))).toHaveLength(1);
    expect(all.problems).toEqual([
      `centroid block ${top} of centroids.bin is corrupt (its SHA-256 does not match the one it was written with); its lists were skipped`,
    ]);
    expect(all.hits).toHaveLength(5);
  });

  it('refuses a corrupt word-table page by name and still answers by meaning', async () => {
    const copy = join(dir, 'corrupt-page');
    rmSync(copy, { recursive: true, force: true });
    const rows = corpusRows();
    const source = {
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
    await writeSharded({ out: copy, model: null, source, lists: 24, wordShards: 16, wordPage: 4 });
    const corpus = await open(rangeFetch(copy, BASE));
    expect(corpus.index.pages.sha).toHaveLength(4);
    const table = readFileSync(join(copy, 'wordtable.bin'));
    // Every page of the question's terms is corrupted: its words cannot be looked up.
    for (let p = 0; p < 4; p++) table[corpus.index.pages.offset[p]! + 9]! ^= 0xff;
    writeFileSync(join(copy, 'wordtable.bin'), table);
    // doc17#4 is 5th by cosine; the test embedder's 128-bit codes rank the probed lists' ~150 rows
    // loosely, so more of them are scored exactly than the default 50 to bring it in.
    const res = await corpus.search({ vector: queryVector(), text: question, k: 5, nprobe: 6, rescore: 100 });
    expect(res.problems.length).toBeGreaterThanOrEqual(1);
    for (const p of res.problems)
      expect(p).toMatch(
        /^word-table page [0-3] of wordtable\.bin is corrupt \(its SHA-256 does not match the one it was written with\); the words it indexes were skipped$/,
      );
    expect(res.hits).toHaveLength(5);
    expect(res.hits.map((h) => h.passage.id)).toContain('doc17#4');
  });

  it('keeps start-up the same size when the corpus has more lists and word shards', async () => {
    const rows = corpusRows();
    const source = {
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
    const sizes: number[] = [];
    for (const [lists, wordShards] of [
      [12, 8],
      [48, 100],
    ] as const) {
      const o = join(dir, `grow-${lists}`);
      await writeSharded({ out: o, model: null, source, lists, wordShards, tops: 4, wordPage: 128 });
      sizes.push((await ShardedCorpus.open(BASE, { fetch: rangeFetch(o, BASE).fetch })).startup.bytes);
    }
    // Four times the lists and twelve times the shards, the same start-up (bar a digit or two of the manifest's counts).
    expect(Math.abs(sizes[1]! - sizes[0]!)).toBeLessThan(8);
  });

  it('reads the int8 rows of only the best candidates, adjacent rows in one range', async () => {
    const host = rangeFetch(out, BASE);
    const corpus = await open(host);
    const res = await corpus.search({
      vector: queryVector(),
      text: question,
      k: 5,
      nprobe: 6,
      rescore: 20,
      gap: 0,
      mode: 'meaning',
    });
    expect(res.problems).toEqual([]);
    expect(res.hits).toHaveLength(5);
    const rb = rowRecordBytes(DIM);
    const ranges = host.requests
      .filter((r) => r.url.endsWith('rows.bin'))
      .map((r) => r.range!.match(/\d+/g)!.map(Number) as [number, number]);
    // 20 records, no more, in ranges of whole records, none touching another (those would be one range).
    expect(ranges.reduce((s, [a, b]) => s + b - a + 1, 0)).toBe(20 * rb);
    expect(ranges.every(([a, b]) => a % rb === 0 && (b + 1) % rb === 0)).toBe(true);
    const sorted = [...ranges].sort((x, y) => x[0] - y[0]);
    expect(sorted.every(([a], i) => i === 0 || a > sorted[i - 1]![1] + 1)).toBe(true);
  });

  it('skips a candidate whose row is corrupt, names it, and ranks the others', async () => {
    const copy = join(dir, 'corrupt-row');
    rmSync(copy, { recursive: true, force: true });
    await indexParquet({ parquet: join(dir, 'passages.parquet'), out: copy, model: null, lists: 24, wordShards: 16 });
    // Find the row record of the passage asked about, and flip a byte of its vector.
    const rows = readFileSync(join(copy, 'rows.bin'));
    const texts = readFileSync(join(copy, 'texts.bin'));
    const rb = rowRecordBytes(DIM);
    let at = -1;
    for (let r = 0; r * rb < rows.length && at < 0; r++) {
      const { pointer } = decodeRowRecord(rows.subarray(r * rb, (r + 1) * rb), DIM);
      if (decodeText(texts.subarray(pointer.offset, pointer.offset + pointer.bytes)).id === 'doc17#4') at = r * rb;
    }
    expect(at).toBeGreaterThanOrEqual(0);
    rows[at + 3]! ^= 0xff;
    writeFileSync(join(copy, 'rows.bin'), rows);
    const corpus = await open(rangeFetch(copy, BASE));
    // Every candidate of the 3 lists is rescored, so the corrupt row is one of them.
    const meaning = await corpus.search({
      vector: queryVector(),
      text: question,
      k: 5,
      nprobe: 3,
      rescore: 600,
      mode: 'meaning',
    });
    expect(meaning.problems).toEqual([
      '1 candidate row of rows.bin is corrupt (SHA-256 does not match its list); that passage was skipped',
    ]);
    expect(meaning.hits.map((h) => h.passage.id)).not.toContain('doc17#4');
    expect(meaning.hits).toHaveLength(5);
    // Its words still find it: the word shard points at its text directly.
    const both = await corpus.search({ vector: queryVector(), text: question, k: 5, nprobe: 3 });
    expect(both.hits[0]!.passage.id).toBe('doc17#4');
  });

  it('falls back to the whole file when a server ignores Range and the file is small, and says so when it is not', async () => {
    const ignoring = rangeFetch(out, BASE, { ignoreRange: true });
    const small = await open(ignoring);
    const res = await small.search({ vector: queryVector(), text: question, k: 3, nprobe: 3 });
    expect(res.hits[0]!.passage.id).toBe('doc17#4');
    expect(res.problems).toEqual([]);
    // The whole files are kept: another question is sliced from them, with no request.
    const sent = ignoring.requests.length;
    const other = await small.search({
      vector: embedText('comet item3x2', DIM),
      text: 'comet item3x2',
      k: 3,
      nprobe: 3,
    });
    expect(other.hits[0]!.passage.id).toBe('doc3#2');
    expect(ignoring.requests.length).toBe(sent);

    const limited = ShardedCorpus.open(BASE, {
      fetch: rangeFetch(out, BASE, { ignoreRange: true }).fetch,
      wholeFileLimit: 100,
    });
    await expect(limited).rejects.toThrow(/ignores HTTP Range requests .*index\.bin/);
    const partial = await ShardedCorpus.open(BASE, {
      fetch: rangeFetch(out, BASE, { ignoreRange: true }).fetch,
      wholeFileLimit: statSync(join(out, 'index.bin')).size,
    });
    const answer = await partial.search({ vector: queryVector(), text: question, k: 3, nprobe: 3 });
    expect(answer.hits).toEqual([]);
    expect(answer.problems.join('\n')).toMatch(/docs\.example ignores HTTP Range requests/);
  });

  it('keeps what arrived when the network fails mid-question', async () => {
    // Lists and texts fail; the word shards arrived, so the rare word still finds its passage's pointer,
    // but the text cannot come: the answer says which blocks failed instead of hanging or throwing.
    const host = rangeFetch(out, BASE, { failWhen: (url, range) => range !== null && url.endsWith('lists.bin') });
    const corpus = await open(host);
    const res = await corpus.search({ vector: queryVector(), text: question, k: 5, nprobe: 3 });
    expect(res.problems.length).toBe(3);
    expect(res.problems[0]).toMatch(/^list \d+ of lists\.bin could not be fetched \(Failed to fetch\)$/);
    expect(res.hits.map((h) => h.passage.id)).toContain('doc17#4');

    const rowsDown = rangeFetch(out, BASE, { failWhen: (url, range) => range !== null && url.endsWith('rows.bin') });
    const res3 = await (await open(rowsDown)).search({
      vector: queryVector(),
      text: question,
      k: 5,
      nprobe: 3,
      rescore: 30,
    });
    expect(res3.problems).toEqual([
      '30 candidate rows of rows.bin could not be fetched (Failed to fetch); those passages were skipped',
    ]);
    expect(res3.hits.map((h) => h.passage.id)).toContain('doc17#4');

    const textsDown = rangeFetch(out, BASE, { failWhen: (url, range) => range !== null && url.endsWith('texts.bin') });
    const res2 = await (await open(textsDown)).search({ vector: queryVector(), text: question, k: 5, nprobe: 3 });
    expect(res2.hits).toEqual([]);
    expect(res2.problems).toHaveLength(5);
    expect(res2.problems[0]).toMatch(/^passage at \d+ of texts\.bin could not be fetched/);
  });

  it('refuses a corpus of another format version, saying how the site rebuilds it', async () => {
    const copy = join(dir, 'old-version');
    rmSync(copy, { recursive: true, force: true });
    await indexParquet({ parquet: join(dir, 'passages.parquet'), out: copy, model: null, lists: 24, wordShards: 16 });
    const m = JSON.parse(readFileSync(join(copy, 'manifest.json'), 'utf8'));
    writeFileSync(join(copy, 'manifest.json'), JSON.stringify({ ...m, version: 2 }));
    await expect(open(rangeFetch(copy, BASE))).rejects.toThrow(
      "the site's sharded corpus is format version 2, and this page reads version 4, 5 or 6: the site must rebuild it with `npm run index -- --sharded`",
    );
  });

  it('names the missing columns of a Parquet file without embeddings', async () => {
    const bad = join(dir, 'bad.parquet');
    writeParquet(bad, corpusRows().slice(0, 5), false);
    await expect(indexParquet({ parquet: bad, out: join(dir, 'bad'), model: null })).rejects.toThrow(
      /lacks column embedding/,
    );
  });
});
