import { describe, expect, it } from 'vitest';
import { HashEmbedder } from '../../doubles/hash-embedder';
import { BEES, freshDb, library, TIDES } from './open-library';

describe('Library (the facade): add, list, retrieve, remove, reopen', () => {
  it('retrieves the passages closest to the question with cosine scores, best first', async () => {
    const lib = await library();
    await lib.addFiles([BEES, TIDES]);
    const hits = await lib.retriever.retrieve('why are there spring tides at full moon', 2);
    expect(hits.map((h) => h.docId === hits[0]!.docId)).toEqual([true, false]);
    expect(hits[0]!.text).toMatch(/tidal bulges/);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    expect(hits[0]!.score).toBeLessThanOrEqual(1);
    expect(hits[0]).toMatchObject({ title: 'tides', index: 0, start: 0 });
    expect(await lib.retriever.retrieve('   ', 3)).toEqual([]);
  });

  it('pasted text becomes a document titled as given', async () => {
    const lib = await library();
    const res = await lib.addText('My notes', 'Sourdough needs a lively starter. Feed it daily.');
    expect(res.added[0]).toMatchObject({ title: 'My notes', format: 'text', passageCount: 1 });
    expect((await lib.retriever.retrieve('starter', 1))[0]!.title).toBe('My notes');
  });

  it('removing a document removes its passages from retrieval; it can be added again', async () => {
    const lib = await library();
    const { added } = await lib.addFiles([BEES, TIDES]);
    expect(await lib.remove(added[0]!.id)).toBe(true);
    expect((await lib.list()).map((d) => d.title)).toEqual(['tides']);
    const hits = await lib.retriever.retrieve('waggle dance bees', 5);
    expect(hits.map((h) => h.title)).toEqual(['tides']);
    expect(await lib.size()).toBe(1);
    await lib.addFiles([BEES]);
    expect((await lib.retriever.retrieve('waggle dance bees', 1))[0]!.title).toBe('Bees');
  });

  it('adding the same content twice keeps one copy', async () => {
    const lib = await library();
    await lib.addFiles([BEES]);
    await lib.addFiles([{ ...BEES, name: 'copy.md' }]);
    expect(await lib.list()).toHaveLength(1);
    expect(await lib.size()).toBe(1);
  });

  it('survives a reload: documents, passages and the index come back from IndexedDB', async () => {
    const dbName = freshDb('reload');
    const first = await library({ dbName });
    await first.addFiles([BEES, TIDES]);
    first.close();
    const embedder = new HashEmbedder();
    const again = await library({ dbName, embedder });
    expect((await again.list()).map((d) => d.title)).toEqual(['Bees', 'tides']);
    expect((await again.retriever.retrieve('tidal bulges moon', 1))[0]!.title).toBe('tides');
    // Only the question was embedded: stored vectors were reused.
    expect(embedder.texts).toEqual(['tidal bulges moon']);
  });

  it('reads a File (whose `bytes` is a method in recent engines) by its contents', async () => {
    const lib = await library();
    const file = new File(['Kites fly in steady wind.'], 'kites.txt', { type: 'text/plain' });
    expect(typeof (file as unknown as { bytes?: unknown }).bytes).not.toBe('object');
    const res = await lib.addFiles([file]);
    expect(res.added.map((d) => d.title)).toEqual(['kites']);
  });
});
