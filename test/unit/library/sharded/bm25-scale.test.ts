// One BM25 scale for both word lists a question merges: the user's library (the in-tab word
// index) and a site's sharded corpus (written by the real writer, read by the real reader).
// mergeHits (site-corpus.ts) merges the two lists by score, so the same passage found for the
// same question must score the same in both, or one list crowds the other out.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSharded, type ShardedRow } from '../../../../scripts/sharded/write-sharded';
import { idf, tfPart, termScore } from '../../../../src/library/lexical/bm25';
import { LexicalIndex } from '../../../../src/library/lexical/lexical-index';
import { postingScore } from '../../../../src/library/sharded/format/words';
import { ShardedCorpus } from '../../../../src/library/sharded/reader';
import { embedText } from '../../../doubles/hash-embedder';
import { rangeFetch } from '../../../doubles/range-fetch';

const DIM = 64;
const BASE = 'https://docs.example/corpus/';
const FILLER = ['river', 'stone', 'market', 'window', 'garden', 'letter', 'engine', 'harbour', 'candle', 'meadow'];

// Passages of different lengths, a few rare words in some of them, one word in every fifth.
const rows: ShardedRow[] = Array.from({ length: 40 }, (_, i) => {
  const words = Array.from(
    { length: 4 + ((i * 7) % 13) },
    (_, j) => `${FILLER[(i + j) % FILLER.length]}${j % 3 ? '' : i}`,
  );
  if (i % 5 === 0) words.push('lighthouse');
  if (i === 7) words.push('zeppelin');
  if (i === 12) words.push('zeppelin', 'zeppelin', 'aurora');
  if (i === 30) words.push('aurora');
  const text = words.join(' ');
  return {
    id: `p${i}`,
    docId: `d${i}`,
    title: `note ${i}`,
    text,
    index: 0,
    embedding: Float32Array.from(embedText(text, DIM)),
  };
});

const QUESTIONS = [
  'zeppelin',
  'aurora',
  'lighthouse',
  'zeppelin aurora',
  'lighthouse zeppelin',
  'aurora nothinglikethis',
];

let dir: string;
let corpus: ShardedCorpus;
const library = new LexicalIndex();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bm25-scale-'));
  await writeSharded({
    out: dir,
    model: null,
    calibrate: 0,
    source: {
      rowCount: rows.length,
      rows: async function* () {
        yield* rows;
      },
    },
  });
  corpus = await ShardedCorpus.open(BASE, { fetch: rangeFetch(dir, BASE).fetch });
  library.add(rows.map((r) => ({ id: r.id, text: `${r.title}\n${r.text}` })));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('BM25 in the user’s library and in a site corpus', () => {
  it.each(QUESTIONS)('gives the same passage the same score for %j', async (question) => {
    const mine = new Map(library.search(question, 40).map((h) => [h.id, h.score]));
    const { hits, problems } = await corpus.search({ vector: null, text: question, k: 40, mode: 'words' });
    expect(problems).toEqual([]);
    const site = new Map(hits.map((h) => [h.passage.id, h.score]));
    const report = [...mine.keys()].map(
      (id) => `${id}: library ${mine.get(id)!.toFixed(4)}, site ${site.get(id)?.toFixed(4)}`,
    );
    console.log(`${JSON.stringify(question)}\n  ${report.join('\n  ')}`);
    expect([...site.keys()].sort()).toEqual([...mine.keys()].sort());
    // The site stores a posting's weight to 1/1000, so scores agree to three decimals.
    for (const [id, score] of mine) expect(site.get(id)!, id).toBeCloseTo(score, 3);
  });

  it('scores a one-term match that is not ideal alike, below the cap', async () => {
    // A passage whose one question term is rare but that is longer than average: not an ideal match.
    const mine = library.search('zeppelin', 5).find((h) => h.id === 'p7')!;
    const site = (await corpus.search({ vector: null, text: 'zeppelin', k: 5, mode: 'words' })).hits.find(
      (h) => h.passage.id === 'p7',
    )!;
    expect(mine.score).toBeLessThan(1);
    expect(site.score).toBeCloseTo(mine.score, 3);
  });
});

describe('words that are also property names of a plain object', () => {
  it('are terms like any other: no crash when absent, found when present', async () => {
    const names = ['constructor', '__proto__', 'tostring', 'hasownproperty'];
    const absent = await corpus.search({ vector: null, text: names.join(' '), k: 5, mode: 'words' });
    expect(absent.problems).toEqual([]);
    expect(absent.hits).toEqual([]);
    const out = `${dir}-names`;
    const text = `The constructor of a class and its __proto__ link, toString and hasOwnProperty.`;
    const withNames: ShardedRow[] = [
      ...rows,
      {
        id: 'names',
        docId: 'dn',
        title: 'object model',
        text,
        index: 0,
        embedding: Float32Array.from(embedText(text, DIM)),
      },
    ];
    await writeSharded({
      out,
      model: null,
      calibrate: 0,
      source: {
        rowCount: withNames.length,
        rows: async function* () {
          yield* withNames;
        },
      },
    });
    const base = 'https://docs.example/names/';
    const named = await ShardedCorpus.open(base, { fetch: rangeFetch(out, base).fetch });
    for (const name of names) {
      const { hits, problems } = await named.search({ vector: null, text: name, k: 3, mode: 'words' });
      expect(problems).toEqual([]);
      expect(
        hits.map((h) => h.passage.id),
        name,
      ).toEqual(['names']);
    }
    rmSync(out, { recursive: true, force: true });
  });
});

describe('a site corpus written before the scale was shared (format version 4)', () => {
  it('reads a version-4 weight (plain BM25 times ln 4) back as the BM25+ term score', () => {
    const [df, n, tf, len, avg] = [3, 500, 2, 14, 11.5];
    const v4 = Math.round(1000 * idf(df, n) * Math.log(4) * tfPart(tf, len, avg));
    expect(postingScore(v4, df, n, 4)).toBeCloseTo(termScore(idf(df, n), tf, len, avg), 3);
    expect(postingScore(1234, df, n, 5)).toBe(1.234);
  });

  it('still opens and answers word and meaning questions (sign codes, as format 4 kept them)', async () => {
    // Format 4's blocks are format 5's (sign codes, spread in index.bin); only the word weights' scale differs.
    const old = `${dir}-v4`;
    await writeSharded({
      out: old,
      model: null,
      calibrate: 0,
      codes: { kind: 'sign' },
      source: {
        rowCount: rows.length,
        rows: async function* () {
          yield* rows;
        },
      },
    });
    const m = JSON.parse(readFileSync(join(old, 'manifest.json'), 'utf8'));
    expect(m).toMatchObject({ version: 5, codec: 'sign+int8' });
    writeFileSync(join(old, 'manifest.json'), JSON.stringify({ ...m, version: 4 }));
    const base = 'https://docs.example/v4/';
    const v4 = await ShardedCorpus.open(base, { fetch: rangeFetch(old, base).fetch });
    const { hits, problems } = await v4.search({ vector: null, text: 'zeppelin', k: 5, mode: 'words' });
    expect(problems).toEqual([]);
    expect(hits.map((h) => h.passage.id).sort()).toEqual(['p12', 'p7']);
    for (const h of hits) expect(h.score).toBeGreaterThan(0);
    const byMeaning = await v4.search({ vector: rows[12]!.embedding, text: '', k: 3, mode: 'meaning' });
    expect(byMeaning.problems).toEqual([]);
    expect(byMeaning.hits[0]!.passage.id).toBe('p12');
    rmSync(old, { recursive: true, force: true });
  });
});
