import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkText } from '../../../../src/core/chunk';
import type { RankedHit } from '../../../../src/core/fusion';
import { embeddingText } from '../../../../src/library/ingest';
import { LexicalIndex, type LexicalDoc } from '../../../../src/library/lexical/lexical-index';
import { hashTerm } from '../../../../src/library/lexical/term-hash';
import { tokenize, TOKENIZER_VERSION } from '../../../../src/library/lexical/tokenize';
import { SnapshotError } from '../../../../src/library/lexical/word-snapshot';
import { labelledSet } from '../../../../bench/retrieval/labelled-set';
import { mulberry32 } from '../../../../src/core/mulberry32';
import { MiniSearchLexical } from '../../../oracle/minisearch-lexical';

const { passages, questions } = labelledSet();
const docs = passages.map((p) => ({ id: p.id, text: embeddingText(p) }));
const probes = questions.map((q) => q.question);
const results = (ix: { search(q: string, k: number): RankedHit[] }, qs = probes) => qs.map((q) => ix.search(q, 10));

// Real prose: the sample documents the page ships, chunked as the library chunks them.
const sampleDir = join(__dirname, '../../../../public/sample');
const sample: LexicalDoc[] = readdirSync(sampleDir)
  .filter((f) => f.endsWith('.md'))
  .flatMap((f) =>
    chunkText(
      { docId: f, title: f, text: readFileSync(join(sampleDir, f), 'utf8') },
      { targetTokens: 60, overlapTokens: 10 },
    ),
  )
  .map((p) => ({ id: p.id, text: embeddingText(p) }));
const corpus = [...docs, ...sample];

/** Questions made of the corpus's own words: 1–6 words from a random passage, sometimes a word no passage holds. */
function randomQueries(from: readonly LexicalDoc[], n: number, seed: number): string[] {
  const r = mulberry32(seed);
  return Array.from({ length: n }, () => {
    const words = from[Math.floor(r() * from.length)]!.text.split(/\s+/);
    const picked = Array.from({ length: 1 + Math.floor(r() * 6) }, () => words[Math.floor(r() * words.length)]!);
    if (r() < 0.2) picked.push('zzqx');
    return picked.join(' ');
  });
}

const oracleOf = async (ds: readonly LexicalDoc[], removed: readonly string[] = []) => {
  const o = new MiniSearchLexical();
  o.add(ds);
  await o.remove(removed);
  return o;
};

/** Same ids in the same order, and the same normalised scores, for the top 10 of every query. */
function expectSame(got: RankedHit[][], want: RankedHit[][], qs: readonly string[]): void {
  expect(want.some((hs) => hs.length > 0)).toBe(true);
  got.forEach((hs, i) => {
    expect(
      hs.map((h) => h.id),
      qs[i],
    ).toEqual(want[i]!.map((h) => h.id));
    hs.forEach((h, j) => expect(Math.abs(h.score - want[i]![j]!.score), qs[i]).toBeLessThan(1e-9));
  });
}

describe('tokenize', () => {
  it('keeps an identifier whole and also indexes its parts, lower-cased, without function words', () => {
    expect(tokenize('How do I fix ERR_QX_7731 in v2.3.1?')).toEqual([
      'fix',
      'err_qx_7731',
      'err',
      'qx',
      '7731',
      'v2.3.1',
      'v2',
      '3',
      '1',
    ]);
    expect(tokenize('The XK-900, not the XK-901.')).toEqual(['xk-900', 'xk', '900', 'xk-901', 'xk', '901']);
    expect(tokenize('... — !')).toEqual([]);
  });

  it('keeps paths, generic types and command-line options whole, as typed, and by their parts', () => {
    expect(tokenize('std::sync::mpsc and fs::read_to_string')).toEqual([
      'std::sync::mpsc',
      'std',
      'sync',
      'mpsc',
      'fs::read_to_string',
      'read_to_string',
      'fs',
      'read',
      'string',
    ]);
    expect(tokenize('Use Rc<T> or HashMap<K, V>')).toEqual([
      'use',
      'rc<t>',
      'rc',
      't',
      'hashmap<k,v>',
      'hashmap',
      'k',
      'v',
    ]);
    expect(tokenize('cargo build --release; what about -R?')).toEqual([
      'cargo',
      'build',
      '--release',
      'release',
      'about',
      '-r',
      'r',
    ]);
    // A dash between words or inside a compound is not an option.
    expect(tokenize('XK-900 - spare')).toEqual(['xk-900', 'xk', '900', 'spare']);
  });

  it('finds an identifier asked as typed before passages that share only its parts', () => {
    const ix = new LexicalIndex();
    ix.add([
      { id: 'rc', text: 'Rc<T>, the reference counted smart pointer, enables multiple ownership of a value.' },
      { id: 'circuit', text: 'An RC circuit has a time constant T: the product of R and C.' },
      { id: 'mpsc', text: 'The std::sync::mpsc module provides channels: mpsc stands for multiple producer.' },
      { id: 'sync', text: 'To sync the std library docs, run the sync script on std.' },
      { id: 'release', text: 'Build with cargo build --release to turn optimisations on.' },
      { id: 'notes', text: 'Release notes: this release fixes the build of the cargo docs.' },
    ]);
    expect(ix.search('What is Rc<T>?', 3)[0]?.id).toBe('rc');
    expect(ix.search('std::sync::mpsc', 3)[0]?.id).toBe('mpsc');
    expect(ix.search('what is mpsc', 3)[0]?.id).toBe('mpsc');
    expect(ix.search('what does --release do', 3)[0]?.id).toBe('release');
  });
});

describe('term hashes', () => {
  it('gives 300,000 distinct terms 300,000 distinct 64-bit hashes, and each 32-bit half collides only as often as chance says', () => {
    const h = new Uint32Array(2);
    const full = new Set<bigint>();
    const low = new Set<number>();
    const n = 300_000;
    for (let i = 0; i < n; i++) {
      hashTerm(`w${i.toString(36)}`, h);
      full.add((BigInt(h[0]!) << 32n) | BigInt(h[1]!));
      low.add(h[0]!);
    }
    expect(full.size).toBe(n);
    // Birthday: n²/2^33 ≈ 10 expected collisions among 32-bit values.
    expect(n - low.size).toBeLessThan(40);
  });
});

describe('LexicalIndex against MiniSearch (the index it replaced, as oracle)', () => {
  const queries = [...probes, ...randomQueries(corpus, 300, 7), 'the of and', '', 'zzqx'];

  it('ranks and scores exactly like MiniSearch on real text and random questions', async () => {
    const ix = new LexicalIndex();
    ix.add(corpus);
    expectSame(results(ix, queries), results(await oracleOf(corpus), queries), queries);
  });

  it('keeps agreeing through added batches, removals (tombstones), a snapshot round trip and adds after loading', async () => {
    const ix = new LexicalIndex();
    ix.add(corpus.slice(0, 200));
    ix.add(corpus.slice(200, 400));
    const gone = corpus.filter((_, i) => i % 3 === 0 && i < 400).map((d) => d.id);
    expect(ix.remove([...gone, 'not-there#0'])).toBe(gone.length);
    // Tombstoned, not yet compacted: still scores like a fresh build of what is left.
    const left = corpus.slice(0, 400);
    expectSame(results(ix, queries), results(await oracleOf(left, gone), queries), queries);
    expect(
      results(ix, queries)
        .flat()
        .some((h) => gone.includes(h.id)),
    ).toBe(false);

    const reloaded = LexicalIndex.fromSnapshot(structuredClone(await ix.snapshot()))!;
    expect(reloaded.size()).toBe(left.length - gone.length);
    expect(reloaded.has(gone[0]!)).toBe(false);
    expect(reloaded.isDirty()).toBe(false);
    expectSame(results(reloaded, queries), results(await oracleOf(left, gone), queries), queries);
    expectSame(results(ix, queries), results(reloaded, queries), queries);

    // Appending to a loaded index writes after its loaded postings; removing again tombstones them.
    expect(reloaded.add(corpus.slice(400))).toBe(corpus.length - 400);
    const gone2 = corpus.filter((_, i) => i % 5 === 1).map((d) => d.id);
    reloaded.remove(gone2);
    const all = await oracleOf(corpus, [...gone, ...gone2]);
    expectSame(results(reloaded, queries), results(all, queries), queries);
    expect(
      results(reloaded, queries)
        .flat()
        .some((h) => gone2.includes(h.id)),
    ).toBe(false);
    const again = LexicalIndex.fromSnapshot(await reloaded.snapshot())!;
    expectSame(results(again, queries), results(all, queries), queries);
    expectSame(results(reloaded, queries), results(all, queries), queries);
  });

  it('agrees on passages added one at a time, where every posting goes through the byte pool’s chains', async () => {
    const ix = new LexicalIndex();
    for (const d of corpus) ix.add([d]);
    expectSame(results(ix, queries), results(await oracleOf(corpus), queries), queries);
  });

  it('agrees on many near-identical passages (ties fall in MiniSearch’s order) and on long posting lists past the budget', async () => {
    const r = mulberry32(3);
    const words = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma', 'kappa'];
    const many = Array.from({ length: 6000 }, (_, i) => ({
      id: `t${i}`,
      text:
        Array.from({ length: 3 + Math.floor(r() * 4) }, () => words[Math.floor(r() * words.length)]!).join(' ') +
        (i % 500 === 0 ? ' rareword' : ''),
    }));
    const ix = new LexicalIndex();
    ix.add(many);
    const qs = [
      'alpha',
      'alpha beta',
      'rareword gamma',
      'sigma kappa omega delta',
      'alpha beta gamma delta omega sigma kappa rareword',
    ];
    const got = qs.map((q) => ix.search(q, 50));
    const oracle = await oracleOf(many);
    expectSame(
      got,
      qs.map((q) => oracle.search(q, 50)),
      qs,
    );
  });
});

describe('LexicalIndex', () => {
  it('finds the one passage holding a rare identifier first, among passages worded alike', () => {
    const ix = new LexicalIndex();
    ix.add(docs);
    for (const q of questions.filter((x) => x.kind === 'identifier')) {
      expect(ix.search(q.question, 3)[0]?.id, q.question).toBe(q.gold);
    }
  });

  it('adds incrementally: a passage already indexed is not tokenised again', () => {
    const ix = new LexicalIndex();
    expect(ix.add(docs.slice(0, 100))).toBe(100);
    expect(ix.add(docs.slice(50, 150))).toBe(50);
    expect(ix.add([docs[0]!, docs[0]!])).toBe(0);
    expect(ix.size()).toBe(150);
  });

  it('reconciles with the library: drops ids it no longer holds and names the ones it lacks', () => {
    const ix = new LexicalIndex();
    ix.add(docs.slice(0, 10));
    const keep = new Set(docs.slice(5, 15).map((d) => d.id));
    expect(ix.retain(keep)).toBe(5);
    expect(ix.missing([...keep])).toEqual(docs.slice(10, 15).map((d) => d.id));
    expect(ix.size()).toBe(5);
  });

  it('clears to empty, and a passage can be added again after removal or clearing', () => {
    const ix = new LexicalIndex();
    ix.add(docs.slice(0, 10));
    ix.remove([docs[0]!.id]);
    expect(ix.add([docs[0]!])).toBe(1);
    expect(ix.size()).toBe(10);
    ix.clear();
    expect(ix.size()).toBe(0);
    expect(ix.search(probes[0]!, 10)).toEqual([]);
    expect(ix.add(docs.slice(0, 3))).toBe(3);
    expect(ix.search(docs[1]!.text, 1)[0]?.id).toBe(docs[1]!.id);
  });

  it('keeps passage ids in any script through removal, re-adding, a snapshot and reloading', async () => {
    const odd = ['café#1', '文書-3#0', 'emoji-🐝#2', 'plain#0', ''].map((id, i) => ({
      id,
      text: `${docs[i]!.text} marker${i}`,
    }));
    const ix = new LexicalIndex();
    ix.add([...docs.slice(0, 300), ...odd]);
    expect(odd.every((d) => ix.has(d.id))).toBe(true);
    expect(ix.has('cafe#1')).toBe(false);
    expect(ix.search('marker2', 1)[0]?.id).toBe('emoji-🐝#2');
    expect(ix.remove(['文書-3#0'])).toBe(1);
    expect(ix.has('文書-3#0')).toBe(false);
    expect(ix.search('marker1', 10)).toEqual([]);
    expect(ix.search('marker0', 10).map((h) => h.id)).toEqual(['café#1']);
    expect(ix.add([odd[1]!])).toBe(1);
    const back = LexicalIndex.fromSnapshot(await ix.snapshot())!;
    for (const d of odd) {
      expect(back.has(d.id), d.id).toBe(true);
      expect(back.search(`marker${odd.indexOf(d)}`, 1)[0]?.id).toBe(d.id);
    }
    expect(back.missing(['café#1', 'café#9'])).toEqual(['café#9']);
    expect(back.size()).toBe(305);
  });

  it('reads a loaded snapshot in place but never writes to it: the stored bytes stay loadable whatever the index does next', async () => {
    const ix = new LexicalIndex();
    ix.add(corpus.slice(0, 300));
    const snap = await ix.snapshot();
    const copy = snap.bytes.slice();
    const loaded = LexicalIndex.fromSnapshot(snap)!;
    loaded.remove(corpus.filter((_, i) => i % 4 === 0).map((d) => d.id));
    await loaded.snapshot();
    loaded.add(corpus.slice(300));
    loaded.remove(corpus.filter((_, i) => i % 4 === 1).map((d) => d.id));
    await loaded.snapshot();
    expect(snap.bytes).toEqual(copy);
    expect(LexicalIndex.fromSnapshot(snap)!.size()).toBe(300);
  });

  it('snapshots an empty index and loads it back empty', async () => {
    const back = LexicalIndex.fromSnapshot(await new LexicalIndex().snapshot())!;
    expect(back.size()).toBe(0);
    back.add(docs.slice(0, 2));
    expect(back.size()).toBe(2);
  });

  it('persists as bytes, not a string', async () => {
    const ix = new LexicalIndex();
    ix.add(docs);
    const snap = await ix.snapshot();
    expect(snap.bytes).toBeInstanceOf(Uint8Array);
    expect(Object.values(snap).some((v) => typeof v === 'string' && v.length > 100)).toBe(false);
  });

  it('refuses a snapshot from MiniSearch (the old format) or another tokenizer version, so it is rebuilt', async () => {
    const ix = new LexicalIndex();
    ix.add(docs.slice(0, 5));
    const snap = await ix.snapshot();
    expect(
      LexicalIndex.fromSnapshot({ format: 'minisearch-7', tokenizer: TOKENIZER_VERSION, json: '{}' } as {
        format: string;
      }),
    ).toBeNull();
    const other = snap.bytes.slice();
    new DataView(other.buffer).setUint32(8, TOKENIZER_VERSION + 1, true);
    expect(LexicalIndex.fromSnapshot({ ...snap, bytes: other })).toBeNull();
    expect(LexicalIndex.fromSnapshot(snap)?.size()).toBe(5);
  });

  it('refuses a truncated or damaged snapshot with a message that says so', async () => {
    const ix = new LexicalIndex();
    ix.add(docs);
    const snap = await ix.snapshot();
    const load = (bytes: Uint8Array) => () => LexicalIndex.fromSnapshot({ format: snap.format, bytes });
    expect(load(snap.bytes.subarray(0, snap.bytes.length - 100))).toThrow(SnapshotError);
    expect(load(snap.bytes.subarray(0, snap.bytes.length - 100))).toThrow(
      /damaged \(\d+ bytes where its header promises \d+\)/,
    );
    expect(load(snap.bytes.subarray(0, 10))).toThrow(/shorter than its header/);
    const flipped = snap.bytes.slice();
    flipped[Math.floor(flipped.length * 0.6)]! ^= 0x10;
    expect(load(flipped)).toThrow(/checksum/);
    expect(load(new TextEncoder().encode('<!doctype html><html>… not found …</html>'.repeat(4)))).toThrow(
      /not a word index/,
    );
    expect(() => LexicalIndex.fromSnapshot({ format: snap.format } as { format: string })).toThrow(SnapshotError);
  });

  it('loads a snapshot that sits at an odd offset in a larger buffer (a file read into a pooled buffer)', async () => {
    const ix = new LexicalIndex();
    ix.add(docs.slice(0, 50));
    const snap = await ix.snapshot();
    const big = new Uint8Array(snap.bytes.length + 3);
    big.set(snap.bytes, 1);
    const back = LexicalIndex.fromSnapshot({ format: snap.format, bytes: big.subarray(1, 1 + snap.bytes.length) })!;
    expectSame(results(back), results(ix), probes);
  });

  it('marks itself dirty only when its contents change', async () => {
    const ix = new LexicalIndex();
    expect(ix.isDirty()).toBe(false);
    ix.add(docs.slice(0, 2));
    expect(ix.isDirty()).toBe(true);
    await ix.snapshot();
    ix.add(docs.slice(0, 2));
    ix.remove(['nope']);
    expect(ix.isDirty()).toBe(false);
    ix.remove([docs[0]!.id]);
    expect(ix.isDirty()).toBe(true);
  });
});
