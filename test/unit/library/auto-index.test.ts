// The library picks its vector index by itself ('auto'): flat while small, compact once it passes
// a threshold (small here, injected), without re-embedding, keeping its answers, and re-opening
// the compact index from its saved files after a reload instead of reading the stored floats.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CompactIndex } from '../../../src/vector/compact-index';
import { FlatIndex } from '../../../src/vector/flat-index';
import type { IndexChoice } from '../../../src/vector/vector-index';
import { compactFileNames, compactPersistence } from '../../../src/library/compact-persistence';
import { IndexHost } from '../../../src/library/index-host';
import { encodePrebuilt } from '../../../src/library/prebuilt';
import { LibraryStore, type LibraryStorage } from '../../../src/library/store';
import { MemoryLibraryStore } from '../../../src/library/memory-store';
import { fileFetch } from '../../doubles/file-fetch';
import { HashEmbedder } from '../../doubles/hash-embedder';
import { MemoryFolder } from '../../doubles/memory-folder';
import { freshDb, library } from './open-library';

const make = (kind: string, dim: number) => (kind === 'compact' ? new CompactIndex(dim) : new FlatIndex(dim));
const COMPACT_AT = 40;

const WORDS =
  'amber basalt cedar dune ember fjord glacier harbour isthmus jetty kelp lagoon moraine nectar oasis prairie quarry reef savanna tundra'.split(
    ' ',
  );
/** One-passage documents on made-up topics, and one clear fact to ask for. */
const note = (i: number) => ({
  name: `note-${i}.txt`,
  bytes: new TextEncoder().encode(
    `Note ${i}: ${WORDS[i % WORDS.length]} ${WORDS[(i * 7 + 3) % WORDS.length]} ${WORDS[(i * 11 + 5) % WORDS.length]} number${i}.`,
  ),
});
const FACT = {
  name: 'volcano.txt',
  bytes: new TextEncoder().encode('The volcano Stromboli erupts every few minutes, a lighthouse of the Mediterranean.'),
};
const QUESTION = 'which volcano erupts every few minutes';

/** Counts the float vectors read from the store. */
function counting(store: LibraryStorage): LibraryStorage & { vectorReads: number } {
  const counted = Object.assign(Object.create(store) as LibraryStorage, { vectorReads: 0 });
  counted.getVectors = async (id) => {
    counted.vectorReads++;
    return store.getVectors(id);
  };
  counted.allVectors = async () => {
    const all = await store.allVectors();
    counted.vectorReads += all.length;
    return all;
  };
  return counted;
}

async function open(
  dbName: string,
  folder: MemoryFolder,
  over: { choice?: IndexChoice; embedder?: HashEmbedder; memory?: boolean; embedderId?: string } = {},
) {
  const host = new IndexHost(over.choice ?? 'auto', make, {
    compactAt: COMPACT_AT,
    persistence: compactPersistence(folder),
  });
  const store = counting(over.memory ? new MemoryLibraryStore() : await LibraryStore.open(dbName));
  const lib = await library({
    dbName,
    index: host,
    embedder: over.embedder ?? new HashEmbedder(),
    openStore: async () => store,
    ...(over.embedderId ? { embedderId: over.embedderId } : {}),
  });
  return { lib, host, store };
}

const top = async (lib: Awaited<ReturnType<typeof library>>, q = QUESTION) =>
  (await lib.retriever.retrieve(q, 3)).map((h) => h.title);

describe("the library's automatic index choice", () => {
  it('serves with flat while small, switches to compact past the threshold, keeps its answers and survives a reload', async () => {
    const dbName = freshDb('auto');
    const folder = new MemoryFolder();
    const { lib, host } = await open(dbName, folder);
    await lib.addFiles([FACT, ...Array.from({ length: 20 }, (_, i) => note(i))]);
    expect(await lib.indexKind()).toBe('flat');
    expect((await lib.indexStatus()).reason).toMatch(/flat exact search: 21 passages, below the 40/);
    const small = await top(lib);
    expect(small[0]).toBe('volcano');
    expect(folder.files.size).toBe(0);

    await lib.addFiles(Array.from({ length: 30 }, (_, i) => note(20 + i)));
    await host.switched();
    expect(await lib.indexKind()).toBe('compact');
    const status = await lib.indexStatus();
    expect(status).toMatchObject({ kind: 'compact', choice: 'auto', switching: false, saved: true });
    expect(status.reason).toMatch(/passed 40 passages/);
    expect(await lib.size()).toBe(51);
    const big = await top(lib);
    expect(big[0]).toBe('volcano');
    // The same top results as exact search over the same library.
    const exact = await library({ dbName: freshDb('exact') });
    await exact.addFiles([FACT, ...Array.from({ length: 50 }, (_, i) => note(i))]);
    expect(await top(exact)).toEqual(big);
    lib.close();

    // Reload: the compact index comes back from its files; no vector is embedded or read again.
    const embedder = new HashEmbedder();
    const again = await open(dbName, folder, { embedder });
    expect(await again.lib.indexKind()).toBe('compact');
    expect((await again.lib.indexStatus()).reason).toMatch(/re-opened from its saved files/);
    expect(again.store.vectorReads).toBe(0);
    expect(await top(again.lib)).toEqual(big);
    expect(embedder.texts).toEqual([QUESTION]);
    expect(again.lib.warnings).toEqual([]);
  });

  it('a pre-built index past the threshold is seeded straight into the compact index, saved, and re-opened', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prebuilt-auto-'));
    const embedder = new HashEmbedder();
    const texts = Array.from({ length: 60 }, (_, i) => (i === 7 ? FACT.bytes : note(i).bytes)).map((b) =>
      new TextDecoder().decode(b),
    );
    const docs = texts.map((text, i) => ({
      id: `doc-${i}`,
      name: `${i}.txt`,
      title: i === 7 ? 'volcano' : `note-${i}`,
      format: 'text' as const,
      text,
    }));
    const passages = texts.map((text, i) => ({
      id: `doc-${i}#0`,
      docId: `doc-${i}`,
      title: docs[i]!.title,
      text,
      index: 0,
      start: 0,
      end: text.length,
    }));
    const out = encodePrebuilt({
      model: 'hash',
      documents: docs,
      passages,
      vectors: await embedder.embed(passages.map((p) => `${p.title}\n${p.text}`)),
    });
    mkdirSync(join(dir, 'index'));
    writeFileSync(join(dir, 'index/library.json'), out.json);
    writeFileSync(join(dir, 'index/vectors.bin'), out.vectors);
    const dbName = freshDb('prebuilt-auto');
    const folder = new MemoryFolder();
    const host = new IndexHost('auto', make, { compactAt: COMPACT_AT, persistence: compactPersistence(folder) });
    const lib = await library({
      dbName,
      index: host,
      seed: true,
      baseUrl: 'http://site.test/',
      fetch: fileFetch(dir),
      embedder,
      embedderId: 'hash',
    });
    // Compact from the first passage: no flat index was filled and then switched.
    expect(await host.vectorStatus()).toMatchObject({ kind: 'compact', switching: false, saved: true });
    expect(await lib.size()).toBe(60);
    expect((await top(lib))[0]).toBe('volcano');
    lib.close();
    const again = await open(dbName, folder, { embedderId: 'hash' });
    expect(again.store.vectorReads).toBe(0);
    expect((await top(again.lib))[0]).toBe('volcano');
    again.lib.close();
    // The same weights from a local pack: the saved index still serves, nothing is read again.
    const pack = await open(dbName, folder, { embedderId: 'local:hash' });
    expect(pack.store.vectorReads).toBe(0);
    expect((await top(pack.lib))[0]).toBe('volcano');
    pack.lib.close();
    // Vectors of another embedding model: the saved index is stale; opening reads none of them and the
    // documents are re-embedded in the background into a new index, without a warning.
    const other = await open(dbName, folder, { embedderId: 'other' });
    expect(other.store.vectorReads).toBe(0);
    await other.lib.idle();
    expect(await other.lib.size()).toBe(60);
    expect((await top(other.lib))[0]).toBe('volcano');
    expect(other.lib.warnings).toEqual([]);
  });

  it('a pre-built size announced before seeding goes straight to compact (nothing built twice)', async () => {
    const host = new IndexHost('auto', make, { compactAt: COMPACT_AT });
    await host.openVectors({ name: null, stamp: '', expected: 0 });
    await host.expect(500);
    await host.add(['a#0'], [new Float32Array([1, 0, 0, 0])]);
    expect(await host.kind()).toBe('compact');
    // An explicit choice is kept whatever the size.
    const flat = new IndexHost('flat', make, { compactAt: COMPACT_AT });
    await flat.openVectors({ name: null, stamp: '', expected: 10_000 });
    await flat.expect(10_000);
    expect(await flat.kind()).toBe('flat');
    expect((await flat.vectorStatus()).reason).toMatch(/chosen in Advanced/);
  });

  it('keeps answering and adding while it switches; adds and removals made meanwhile land in the compact index', async () => {
    const host = new IndexHost('auto', make, { compactAt: 3 });
    await host.openVectors({ name: null, stamp: '', expected: 0 });
    const v = (i: number) => Float32Array.from({ length: 8 }, (_, j) => (j === i % 8 ? 1 : 0.1));
    await host.add(['a#0', 'b#0', 'c#0'], [v(0), v(1), v(2)]);
    // The switch has started; the flat index still answers, and these changes must not be lost.
    expect((await host.vectorStatus()).switching).toBe(true);
    await host.add(['d#0'], [v(3)]);
    await host.remove(['b#0']);
    expect((await host.search(v(3), 1))[0]!.id).toBe('d#0');
    await host.switched();
    expect(await host.kind()).toBe('compact');
    expect(await host.size()).toBe(3);
    expect((await host.search(v(3), 1))[0]!.id).toBe('d#0');
    expect((await host.search(v(1), 3)).map((h) => h.id)).not.toContain('b#0');
  });

  it('reconciles the saved index with documents added and removed while it could not be opened', async () => {
    const dbName = freshDb('reconcile');
    const folder = new MemoryFolder();
    const first = await open(dbName, folder, { choice: 'compact' });
    const { added } = await first.lib.addFiles([FACT, note(1), note(2), note(3)]);
    first.lib.close();
    // Another tab held the files: this visit's index lived in memory, its changes went to IndexedDB only.
    folder.available = false;
    const other = await open(dbName, folder, { choice: 'compact' });
    await other.lib.remove(added[1]!.id);
    await other.lib.addFiles([note(4)]);
    other.lib.close();
    folder.available = true;
    const again = await open(dbName, folder, { choice: 'compact' });
    // Only the document added meanwhile is read from the stored vectors.
    expect(again.store.vectorReads).toBe(1);
    expect(await again.lib.size()).toBe(4);
    expect((await again.lib.retriever.retrieve('Note 1', 5)).map((h) => h.title)).not.toContain('note-1');
    expect((await again.lib.retriever.retrieve('number4', 1))[0]!.title).toBe('note-4');
    expect(await top(again.lib)).toContain('volcano');
  });

  it('rebuilds a damaged saved index once from the stored vectors, with a warning', async () => {
    const dbName = freshDb('corrupt');
    const folder = new MemoryFolder();
    const first = await open(dbName, folder, { choice: 'compact' });
    await first.lib.addFiles([FACT, note(1), note(2)]);
    const want = await top(first.lib);
    first.lib.close();
    folder.truncate(compactFileNames(dbName)[2]!, 5);
    const again = await open(dbName, folder, { choice: 'compact' });
    expect(again.lib.warnings).toEqual([
      expect.stringMatching(
        /saved vector index could not be used \(its codes file holds 0 of 3 rows\): it is rebuilt once/,
      ),
    ]);
    expect(again.store.vectorReads).toBe(3);
    expect(await top(again.lib)).toEqual(want);
    again.lib.close();
    const third = await open(dbName, folder, { choice: 'compact' });
    expect(third.lib.warnings).toEqual([]);
    expect(third.store.vectorReads).toBe(0);
    expect(await top(third.lib)).toEqual(want);
  });

  it('a library in memory (no storage) keeps its compact index in memory and writes no file', async () => {
    const folder = new MemoryFolder();
    const { lib } = await open(freshDb('memory'), folder, { choice: 'compact', memory: true });
    await lib.addFiles([FACT, note(1)]);
    expect((await top(lib))[0]).toBe('volcano');
    expect(await lib.indexStatus()).toMatchObject({ kind: 'compact', saved: false });
    expect((await lib.indexStatus()).reason).toMatch(/kept in memory/);
    expect(folder.files.size).toBe(0);
  });

  it('choosing flat by hand frees the files a compact index left', async () => {
    const dbName = freshDb('discard');
    const folder = new MemoryFolder();
    const first = await open(dbName, folder, { choice: 'compact' });
    await first.lib.addFiles([FACT]);
    first.lib.close();
    expect(folder.files.size).toBe(4);
    const flat = await open(dbName, folder, { choice: 'flat' });
    expect(folder.files.size).toBe(0);
    expect((await top(flat.lib))[0]).toBe('volcano');
  });
});
