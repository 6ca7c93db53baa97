import { describe, expect, it, vi } from 'vitest';
import { FlatIndex } from '../../../src/vector/flat-index';
import { Catalog } from '../../../src/library/catalog';
import { IndexHost } from '../../../src/library/index-host';
import { readAndPrepare, type PreparedDocument } from '../../../src/library/ingest';
import { ingestDocument } from '../../../src/library/ingest-batch';
import type { LibraryProgress } from '../../../src/library/library';
import { LibraryStore } from '../../../src/library/store';
import { HashEmbedder } from '../../doubles/hash-embedder';
import { BEES, enc, freshDb, library, TIDES } from './open-library';

describe('adding a batch of files', () => {
  it('adds a batch, refusing bad files by name and reason while the rest go in', async () => {
    const events: LibraryProgress[] = [];
    const lib = await library({ onProgress: (p) => events.push(p) });
    const res = await lib.addFiles([
      BEES,
      { name: 'empty.txt', bytes: new Uint8Array() },
      { name: 'blob.txt', bytes: new Uint8Array([1, 0, 2, 0]) },
      TIDES,
    ]);
    expect(res.added.map((d) => d.title)).toEqual(['Bees', 'tides']);
    expect(res.refused).toEqual([
      { name: 'empty.txt', reason: 'the file is empty' },
      { name: 'blob.txt', reason: expect.stringMatching(/binary/) },
    ]);
    expect((await lib.list()).map((d) => [d.title, d.passageCount, d.origin, d.bytes])).toEqual([
      ['Bees', 1, 'user', BEES.bytes.length],
      ['tides', 1, 'user', TIDES.bytes.length],
    ]);
    expect(events.filter((e) => e.stage === 'refused').map((e) => e.name)).toEqual(['empty.txt', 'blob.txt']);
    expect(events.filter((e) => e.stage === 'added').map((e) => [e.name, e.fileIndex, e.fileCount])).toEqual([
      ['bees.md', 0, 4],
      ['tides.txt', 3, 4],
    ]);
  });

  it('a stopped batch keeps the documents before the stop, and the one in progress by its words, saying it waits for its vectors', async () => {
    const controller = new AbortController();
    const embedder = new HashEmbedder();
    const slow = {
      embed: async (texts: string[], signal?: AbortSignal) => {
        if (texts.some((t) => t.includes('tidal'))) controller.abort();
        signal?.throwIfAborted();
        return embedder.embed(texts);
      },
    };
    const lib = await library({ embedder: slow });
    const res = await lib.addFiles([BEES, TIDES, { name: 'c.txt', bytes: enc('Third.') }], {
      signal: controller.signal,
    });
    expect(res.aborted).toBe(true);
    expect(res.added.map((d) => [d.title, d.pendingEmbedding ?? false])).toEqual([
      ['Bees', false],
      ['tides', true],
    ]);
    expect(res.notEmbedded).toEqual([
      { name: 'tides.txt', reason: 'adding was stopped before its passages were embedded' },
    ]);
    expect((await lib.list()).map((d) => [d.title, d.pendingEmbedding ?? false])).toEqual([
      ['Bees', false],
      ['tides', true],
    ]);
    // One vector (Bees); tides is found by its words, and embedded when asked for.
    expect(await lib.size()).toBe(1);
    expect((await lib.retriever.retrieve('spring tides full moon', 1))[0]!.title).toBe('tides');
    expect(await lib.embedPending()).toBe(1);
    expect(await lib.size()).toBe(2);
  });

  it('writes each document by its words before embedding it: searchable by words while its vectors are made', async () => {
    const inner = new HashEmbedder();
    const seen: { during: string; vectors: number; listed: [string, boolean][] }[] = [];
    let lib: Awaited<ReturnType<typeof library>> | undefined;
    const embedder = {
      embed: async (texts: string[]) => {
        // While a document is being embedded, the library already holds it, waiting for its vectors.
        if (lib && texts.some((t) => t.includes('tidal'))) {
          const hits = await lib.retriever.retrieve('spring tides full moon', 1);
          seen.push({
            during: hits[0]?.title ?? '',
            vectors: await lib.size(),
            listed: (await lib.list()).map((d) => [d.title, d.pendingEmbedding ?? false]),
          });
        }
        return inner.embed(texts);
      },
    };
    const events: LibraryProgress[] = [];
    lib = await library({ embedder, onProgress: (p) => events.push(p) });
    await lib.addFiles([BEES]);
    events.length = 0;
    const res = await lib.addFiles([TIDES]);
    expect(seen).toEqual([
      {
        during: 'tides',
        vectors: 1,
        listed: [
          ['Bees', false],
          ['tides', true],
        ],
      },
    ]);
    expect(res.added.map((d) => [d.title, d.pendingEmbedding ?? false])).toEqual([['tides', false]]);
    expect(res.notEmbedded).toEqual([]);
    expect(await lib.size()).toBe(2);
    // The page hears of it twice: kept by its words (listed at once), then added with its vectors.
    expect(events.filter((e) => e.doc).map((e) => [e.stage, e.doc!.pendingEmbedding ?? false])).toEqual([
      ['embedding', true],
      ['added', false],
    ]);
  });

  it('an embedder failure keeps the document, found by its words and marked not embedded, and embeds it once the model runs', async () => {
    let fail = false;
    const inner = new HashEmbedder();
    const lib = await library({
      embedder: { embed: (t, s) => (fail ? Promise.reject(new Error('model crashed')) : inner.embed(t, s)) },
    });
    await lib.addFiles([BEES]);
    fail = true;
    const res = await lib.addFiles([TIDES]);
    expect(res.refused).toEqual([]);
    expect(res.added.map((d) => [d.name, d.pendingEmbedding])).toEqual([['tides.txt', true]]);
    expect(res.notes).toEqual([]);
    expect(res.notEmbedded).toEqual([{ name: 'tides.txt', reason: expect.stringMatching(/model crashed/) }]);
    expect((await lib.list()).map((d) => [d.title, d.pendingEmbedding ?? false])).toEqual([
      ['Bees', false],
      ['tides', true],
    ]);
    // Only Bees has a vector; the question cannot be embedded either, so words alone find tides.
    expect(await lib.size()).toBe(1);
    expect((await lib.retriever.retrieve('spring tides full moon', 1))[0]!.title).toBe('tides');
    fail = false;
    expect(await lib.embedPending()).toBe(1);
    expect(await lib.size()).toBe(2);
    expect((await lib.list()).map((d) => d.pendingEmbedding ?? false)).toEqual([false, false]);
    expect(await lib.embedPending()).toBe(0);
  });

  it('a document kept without vectors is embedded when the library next opens with a working model', async () => {
    const dbName = freshDb('pending');
    const broken = await library({ dbName, embedder: { embed: () => Promise.reject(new Error('no model')) } });
    await broken.addFiles([TIDES]);
    broken.close();
    const again = await library({ dbName });
    await expect.poll(async () => (await again.list()).map((d) => d.pendingEmbedding ?? false)).toEqual([false]);
    expect(await again.size()).toBe(1);
    expect((await again.retriever.retrieve('spring tides', 1))[0]!.title).toBe('tides');
  });

  it('a passage that embeds to a zero vector is left out and reported; the rest of its document goes in', async () => {
    const inner = new HashEmbedder();
    // Like the tiny test embedder on a passage with no word it knows.
    const embedder = {
      embed: async (texts: string[]) =>
        (await inner.embed(texts)).map((v, i) => (texts[i]!.includes('zzqx') ? new Float32Array(v.length) : v)),
    };
    const lib = await library({ embedder, chunk: { targetTokens: 12, overlapTokens: 0 } });
    const text =
      'Forager bees perform a waggle dance near the hive. zzqx zzqx zzqx zzqx zzqx zzqx zzqx zzqx. Honey is stored in wax cells by workers.';
    const res = await lib.addFiles([
      { name: 'mixed.txt', bytes: enc(text) },
      { name: 'junk.txt', bytes: enc('zzqx zzqx zzqx.') },
    ]);
    expect(res.added.map((d) => d.name)).toEqual(['mixed.txt', 'junk.txt']);
    expect(res.added[0]!.passageCount).toBeGreaterThanOrEqual(2);
    expect(res.notes).toEqual([
      { name: 'mixed.txt', note: expect.stringMatching(/^1 of \d+ passages could not be embedded .*zero vector/) },
    ]);
    expect(res.notEmbedded).toEqual([{ name: 'junk.txt', reason: expect.stringMatching(/zero vector/) }]);
    expect(res.refused).toEqual([]);
    expect((await lib.retriever.retrieve('waggle dance', 1))[0]!.text).toMatch(/waggle/);
    expect(await lib.size()).toBe(res.added[0]!.passageCount);
  });

  it('does not add or count a file whose text the library already holds, under its name or another', async () => {
    const lib = await library();
    const res = await lib.addFiles([BEES, { name: 'copy/bees.md', bytes: BEES.bytes }]);
    expect(res.added.map((d) => d.name)).toEqual(['bees.md']);
    expect(res.already).toEqual([{ name: 'copy/bees.md', as: 'bees.md' }]);
    const again = await lib.addFiles([BEES]);
    expect(again.added).toEqual([]);
    expect(again.already).toEqual([{ name: 'bees.md', as: 'bees.md' }]);
    expect((await lib.list()).length).toBe(1);
  });

  it('refuses a file over the size limit from its declared size, without reading it', async () => {
    const lib = await library({ maxFileBytes: 1000 });
    const huge = {
      name: 'huge.txt',
      size: 220 * 1024 * 1024,
      arrayBuffer: () => Promise.reject(new Error('a file over the limit was read')),
    };
    const res = await lib.addFiles([huge, BEES]);
    expect(res.refused).toEqual([
      { name: 'huge.txt', reason: expect.stringMatching(/too large \(220\.0 MB; the limit is 0\.0 MB\)/) },
    ]);
    expect(res.added.map((d) => d.title)).toEqual(['Bees']);
  });

  it('reports progress over the whole batch in files and bytes', async () => {
    const events: LibraryProgress[] = [];
    const lib = await library({ onProgress: (p) => events.push(p) });
    await lib.addFiles([BEES, { name: 'empty.txt', bytes: new Uint8Array() }, TIDES]);
    const total = BEES.bytes.length + TIDES.bytes.length;
    expect(events.every((e) => e.bytesTotal === total)).toBe(true);
    const last = events.at(-1)!;
    expect([last.filesDone, last.bytesDone]).toEqual([3, total]);
    const done = events.map((e) => e.bytesDone!);
    expect(done).toEqual([...done].sort((a, b) => a - b));
  });

  it('a full storage quota refuses the file with a clear reason and keeps the batch going', async () => {
    const lib = await library();
    const store = (lib as unknown as { store: { putDocument: (...a: unknown[]) => Promise<void> } }).store;
    const put = store.putDocument.bind(store);
    store.putDocument = async (...args: unknown[]) => {
      if ((args[0] as { name: string }).name === 'bees.md') throw new DOMException('quota', 'QuotaExceededError');
      return put(...args);
    };
    const res = await lib.addFiles([BEES, TIDES]);
    expect(res.refused).toEqual([{ name: 'bees.md', reason: expect.stringMatching(/storage .* is full/) }]);
    expect(res.added.map((d) => d.title)).toEqual(['tides']);
    expect(await lib.size()).toBe(1);
  });
  it('storage that fills up between a document’s words and its vectors refuses it, takes its words out again and tells the list', async () => {
    const events: LibraryProgress[] = [];
    const lib = await library({ onProgress: (p) => events.push(p) });
    const store = (lib as unknown as { store: { putDocument: (...a: unknown[]) => Promise<void> } }).store;
    const put = store.putDocument.bind(store);
    store.putDocument = async (...args: unknown[]) => {
      const vectors = args[2] as Float32Array[];
      if ((args[0] as { name: string }).name === 'bees.md' && vectors.length > 0)
        throw new DOMException('quota', 'QuotaExceededError');
      return put(...args);
    };
    const res = await lib.addFiles([BEES, TIDES]);
    expect(res.refused).toEqual([{ name: 'bees.md', reason: expect.stringMatching(/storage .* is full/) }]);
    expect(res.added.map((d) => d.title)).toEqual(['tides']);
    expect(res.notEmbedded).toEqual([]);
    expect((await lib.list()).map((d) => d.title)).toEqual(['tides']);
    expect((await lib.retriever.retrieve('waggle dance', 3)).every((h) => h.title !== 'Bees')).toBe(true);
    // The page listed Bees by its words, then hears it taken out again.
    const listed = events.find((e) => e.doc?.name === 'bees.md');
    expect(listed?.stage).toBe('embedding');
    expect(events.find((e) => e.stage === 'refused')?.withdrawn).toBe(listed?.doc?.id);
  });
});

describe('one document written', () => {
  it('returns what it dropped with that document, so one document’s losses never show on the next', async () => {
    const store = await LibraryStore.open(freshDb('ingest'));
    const announced: string[] = [];
    const catalog = new Catalog(store, new IndexHost('flat', (_k, dim) => new FlatIndex(dim)), (id) =>
      announced.push(id),
    );
    const inner = new HashEmbedder();
    const embedder = {
      embed: async (texts: string[]) =>
        (await inner.embed(texts)).map((v, i) => (texts[i]!.includes('zzqx') ? new Float32Array(v.length) : v)),
    };
    const prepared = async (name: string, text: string): Promise<PreparedDocument> => {
      const out = await readAndPrepare({ name, bytes: enc(text) }, { chunk: { targetTokens: 12, overlapTokens: 0 } });
      if (!out.ok) throw new Error(out.reason);
      return out.doc;
    };
    try {
      const mixed = await ingestDocument(
        catalog,
        embedder,
        await prepared(
          'mixed.txt',
          'Forager bees perform a waggle dance near the hive. zzqx zzqx zzqx zzqx zzqx zzqx zzqx zzqx. Honey is stored in wax cells by workers.',
        ),
        'user',
      );
      expect(mixed).toMatchObject({
        doc: { name: 'mixed.txt' },
        dropped: 1,
        reason: expect.stringMatching(/zero vector/),
      });
      const clean = await ingestDocument(
        catalog,
        embedder,
        await prepared('tides.txt', 'The moon raises two tidal bulges.'),
        'user',
      );
      expect(clean).toEqual({ doc: expect.objectContaining({ name: 'tides.txt' }), pending: false, dropped: 0 });
      // Nothing embeddable: kept by its words, waiting for vectors.
      const junk = await ingestDocument(catalog, embedder, await prepared('junk.txt', 'zzqx zzqx zzqx.'), 'user');
      expect(junk).toMatchObject({ doc: { name: 'junk.txt', pendingEmbedding: true }, pending: true, dropped: 1 });
      expect((await store.listDocuments()).map((d) => d.name)).toEqual(['mixed.txt', 'tides.txt', 'junk.txt']);
      expect(await store.getVectors(junk.doc.id)).toBeUndefined();
      // Other tabs hear of each document when its words are in, and again when its vectors are.
      expect(announced).toEqual([mixed.doc.id, mixed.doc.id, clean.doc.id, clean.doc.id, junk.doc.id]);
    } finally {
      store.close();
    }
  });

  it('lists a batch in the order it was added even when the clock does not move between documents', async () => {
    const store = await LibraryStore.open(freshDb('order'));
    const catalog = new Catalog(store, new IndexHost('flat', (_k, dim) => new FlatIndex(dim)), () => undefined);
    const now = vi.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    try {
      // Titles in reverse alphabetical order: a tie on the time would list them z, y, x backwards.
      for (const name of ['zebra.txt', 'yak.txt', 'xerus.txt']) {
        const out = await readAndPrepare(
          { name, bytes: enc(`The ${name.slice(0, -4)} grazes on the plain near the river.`) },
          {},
        );
        if (!out.ok) throw new Error(out.reason);
        await ingestDocument(catalog, new HashEmbedder(), out.doc, 'user');
      }
      expect((await store.listDocuments()).map((d) => d.name)).toEqual(['zebra.txt', 'yak.txt', 'xerus.txt']);
    } finally {
      now.mockRestore();
      store.close();
    }
  });
});
