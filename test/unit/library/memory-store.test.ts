// The in-memory library (a visit with no storage) keeps the same contract as the IndexedDB one,
// and the Library over it works the same way until the page closes.
import { describe, expect, it } from 'vitest';
import type { Passage } from '../../../src/core/ports';
import { FlatIndex } from '../../../src/vector/flat-index';
import { IndexHost } from '../../../src/library/index-host';
import { Library } from '../../../src/library/library';
import { MemoryLibraryStore } from '../../../src/library/memory-store';
import { rowsOf, type StoredDocument } from '../../../src/library/store';
import { HashEmbedder } from '../../doubles/hash-embedder';

const doc = (id: string, count: number): [StoredDocument, Passage[], Float32Array[]] => [
  {
    id,
    title: `T ${id}`,
    name: `${id}.txt`,
    format: 'text',
    text: 'x',
    passageCount: 0,
    addedAt: Date.now(),
    origin: 'user',
  },
  Array.from({ length: count }, (_, i) => ({ id: `${id}#${i}`, docId: id, title: `T ${id}`, text: `p${i}`, index: i })),
  Array.from({ length: count }, (_, i) => new Float32Array([i, 1, 2])),
];

describe('MemoryLibraryStore', () => {
  it('stores, replaces and removes a document with its passages and vectors', async () => {
    const s = new MemoryLibraryStore();
    expect(s.persistent).toBe(false);
    await s.putDocument(...doc('a', 4));
    await s.putDocument(...doc('b', 1));
    await s.putDocument(...doc('a', 2));
    expect((await s.passagesOf('a')).map((p) => p.id)).toEqual(['a#0', 'a#1']);
    expect((await s.getDocument('a'))?.passageCount).toBe(2);
    const v = (await s.getVectors('a'))!;
    expect(rowsOf(v).map((r) => Array.from(r))).toEqual([
      [0, 1, 2],
      [1, 1, 2],
    ]);
    expect(await s.removeDocument('a')).toBe(true);
    expect(await s.removeDocument('a')).toBe(false);
    expect(await s.getPassages(['a#0', 'b#0'])).toEqual([undefined, expect.objectContaining({ id: 'b#0' })]);
    expect((await s.allVectors()).map((x) => x.docId)).toEqual(['b']);
  });

  it('a bad write changes nothing, and what it returns are copies', async () => {
    const s = new MemoryLibraryStore();
    await s.putDocument(...doc('a', 2));
    const [d, ps, vs] = doc('a', 4);
    delete (ps[2] as Partial<Passage>).id;
    await expect(s.putDocument(d, ps, vs)).rejects.toThrow();
    await expect(s.putDocument(d, ps.slice(0, 2), vs.slice(1, 2))).rejects.toThrow(/2 passages but 1 vectors/);
    expect((await s.passagesOf('a')).map((p) => p.id)).toEqual(['a#0', 'a#1']);
    const got = (await s.getDocument('a'))!;
    got.title = 'changed by the caller';
    (await s.passagesOf('a'))[0]!.text = 'changed';
    expect((await s.getDocument('a'))!.title).toBe('T a');
    expect((await s.passagesOf('a'))[0]!.text).toBe('p0');
  });
});

describe('Library in memory', () => {
  it('adds and finds documents without IndexedDB, and a new page starts empty', async () => {
    const open = () =>
      Library.open({
        embedder: new HashEmbedder(),
        index: new IndexHost('flat', (_k, dim) => new FlatIndex(dim)),
        seed: false,
        openStore: async () => new MemoryLibraryStore(),
      });
    const lib = await open();
    expect(lib.persistent).toBe(false);
    const res = await lib.addText('Tides', 'The moon raises two tidal bulges. Spring tides come at full moon.');
    expect(res.added.map((d) => d.title)).toEqual(['Tides']);
    const hits = await lib.retriever.retrieve('spring tides full moon', 1);
    expect(hits[0]?.title).toBe('Tides');
    lib.close();
    const again = await open();
    expect(await again.list()).toEqual([]);
    again.close();
  });
});
