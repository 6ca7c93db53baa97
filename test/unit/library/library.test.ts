import 'fake-indexeddb/auto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FlatIndex } from '../../../src/core/flat-index';
import { IndexHost } from '../../../src/library/index-host';
import { Library, type LibraryOptions, type LibraryProgress } from '../../../src/library/library';
import { encodePrebuilt } from '../../../src/library/prebuilt';
import { fileFetch } from '../../doubles/file-fetch';
import { HashEmbedder } from '../../doubles/hash-embedder';

const PUBLIC = resolve(__dirname, '../../../public');
const enc = (s: string) => new TextEncoder().encode(s);
let n = 0;
const open: Library[] = [];
afterEach(() => open.splice(0).forEach((l) => l.close()));

async function library(over: Partial<LibraryOptions> = {}): Promise<Library> {
  const lib = await Library.open({
    embedder: new HashEmbedder(),
    index: new IndexHost('flat', (_k, dim) => new FlatIndex(dim)),
    dbName: `lib-${n++}`,
    seed: false,
    ...over,
  });
  open.push(lib);
  return lib;
}

const BEES = { name: 'bees.md', bytes: enc('# Bees\n\nForager bees perform a waggle dance to show where flowers are.') };
const TIDES = { name: 'tides.txt', bytes: enc('The moon raises two tidal bulges. Spring tides come at full moon.') };

describe('Library', () => {
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
    const dbName = `reload-${n++}`;
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

  it('re-embeds stored passages when the embedding model changed', async () => {
    const dbName = `model-${n++}`;
    (await library({ dbName, embedderId: 'model-a' })).close();
    const a = await library({ dbName, embedderId: 'model-a' });
    await a.addFiles([BEES]);
    a.close();
    const embedder = new HashEmbedder(32);
    const b = await library({ dbName, embedderId: 'model-b', embedder });
    expect(embedder.texts).toHaveLength(1);
    expect((await b.retriever.retrieve('waggle dance', 1))[0]!.title).toBe('Bees');
  });

  it('a stopped batch keeps the documents before the stop and none of the one in progress', async () => {
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
    const res = await lib.addFiles([BEES, TIDES, { name: 'c.txt', bytes: enc('Third.') }], { signal: controller.signal });
    expect(res.aborted).toBe(true);
    expect((await lib.list()).map((d) => d.title)).toEqual(['Bees']);
    expect(await lib.size()).toBe(1);
  });

  it('an embedder failure refuses the document by name with the error, and leaves the library unchanged', async () => {
    let fail = false;
    const inner = new HashEmbedder();
    const lib = await library({ embedder: { embed: (t, s) => (fail ? Promise.reject(new Error('model crashed')) : inner.embed(t, s)) } });
    await lib.addFiles([BEES]);
    fail = true;
    const res = await lib.addFiles([TIDES]);
    expect(res.refused).toEqual([{ name: 'tides.txt', reason: expect.stringMatching(/could be embedded.*model crashed/) }]);
    fail = false;
    expect((await lib.list()).map((d) => d.title)).toEqual(['Bees']);
    expect(await lib.size()).toBe(1);
  });

  it('a passage that embeds to a zero vector is left out and reported; the rest of its document goes in', async () => {
    const inner = new HashEmbedder();
    // Like the tiny test embedder on a passage with no word it knows.
    const embedder = { embed: async (texts: string[]) => (await inner.embed(texts)).map((v, i) => (texts[i]!.includes('zzqx') ? new Float32Array(v.length) : v)) };
    const lib = await library({ embedder, chunk: { targetTokens: 12, overlapTokens: 0 } });
    const text = 'Forager bees perform a waggle dance near the hive. zzqx zzqx zzqx zzqx zzqx zzqx zzqx zzqx. Honey is stored in wax cells by workers.';
    const res = await lib.addFiles([{ name: 'mixed.txt', bytes: enc(text) }, { name: 'junk.txt', bytes: enc('zzqx zzqx zzqx.') }]);
    expect(res.added.map((d) => d.name)).toEqual(['mixed.txt']);
    expect(res.added[0]!.passageCount).toBeGreaterThanOrEqual(2);
    expect(res.notes).toEqual([{ name: 'mixed.txt', note: expect.stringMatching(/^1 of \d+ passages could not be embedded .*zero vector/) }]);
    expect(res.refused).toEqual([{ name: 'junk.txt', reason: expect.stringMatching(/none of its 1 passages could be embedded .*zero vector/) }]);
    expect((await lib.retriever.retrieve('waggle dance', 1))[0]!.text).toMatch(/waggle/);
    expect(await lib.size()).toBe(res.added[0]!.passageCount);
  });

  it('says when a file has the same text as a document already in the library, which is kept once', async () => {
    const lib = await library();
    const res = await lib.addFiles([BEES, { name: 'copy/bees.md', bytes: BEES.bytes }]);
    expect(res.notes).toEqual([{ name: 'copy/bees.md', note: 'it has the same text as bees.md, so the library keeps it once' }]);
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
    expect(res.refused).toEqual([{ name: 'huge.txt', reason: expect.stringMatching(/too large \(220\.0 MB; the limit is 0\.0 MB\)/) }]);
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

  it('loads the shipped sample corpus on the first visit only', async () => {
    const dbName = `seed-${n++}`;
    const opts = { dbName, seed: true, baseUrl: 'http://site.test/', fetch: fileFetch(PUBLIC), embedder: new HashEmbedder(1024) };
    const lib = await library(opts);
    const docs = await lib.list();
    expect(docs.length).toBeGreaterThanOrEqual(4);
    expect(docs.every((d) => d.origin === 'sample' && d.passageCount > 0)).toBe(true);
    expect((await lib.retriever.retrieve('How does the waggle dance show distance?', 1))[0]!.title).toBe('How Honeybee Colonies Work');
    await lib.remove(docs[0]!.id);
    lib.close();
    const again = await library(opts);
    expect(await again.list()).toHaveLength(docs.length - 1);
  });

  it('loads a pre-built index without embedding, and re-embeds it for a different model', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prebuilt-'));
    const embedder = new HashEmbedder();
    const docs = [{ id: 'doc-1', name: 'x.txt', title: 'Kites', format: 'text' as const, text: 'Kites fly in steady wind.' }];
    const passages = [{ id: 'doc-1#0', docId: 'doc-1', title: 'Kites', text: 'Kites fly in steady wind.', index: 0, start: 0, end: 25 }];
    const out = encodePrebuilt({ model: 'hash', documents: docs, passages, vectors: await embedder.embed(['Kites\nKites fly in steady wind.']) });
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'index'));
    writeFileSync(join(dir, 'index/library.json'), out.json);
    writeFileSync(join(dir, 'index/vectors.bin'), out.vectors);
    const same = new HashEmbedder();
    const events: LibraryProgress[] = [];
    const lib = await library({ seed: true, baseUrl: 'http://site.test/', fetch: fileFetch(dir), embedder: same, embedderId: 'hash', onProgress: (p) => events.push(p) });
    // Every document that starts reporting progress also reports its end, so no progress bar is left behind.
    expect(events.map((e) => e.stage)).toEqual(['saving', 'added']);
    expect((await lib.list()).map((d) => [d.title, d.origin])).toEqual([['Kites', 'prebuilt']]);
    expect(same.calls).toBe(0);
    expect((await lib.retriever.retrieve('steady wind', 1))[0]).toMatchObject({ id: 'doc-1#0', score: expect.any(Number) });
    const other = new HashEmbedder(16);
    const lib2 = await library({ seed: true, baseUrl: 'http://site.test/', fetch: fileFetch(dir), embedder: other, embedderId: 'other' });
    expect(other.texts).toEqual(['Kites\nKites fly in steady wind.']);
    expect(await lib2.size()).toBe(1);
  });

  it('a broken pre-built index is reported as a warning and the library still opens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'broken-'));
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'index'));
    writeFileSync(join(dir, 'index/library.json'), '{"format":"selfrag-library","version":1,"documents":[],"passages":[]}');
    const lib = await library({ seed: true, baseUrl: 'http://site.test/', fetch: fileFetch(dir) });
    expect(lib.warnings).toEqual([expect.stringMatching(/vectors\.bin is missing/)]);
    expect(await lib.list()).toEqual([]);
  });
});

describe('Library with browser File objects', () => {
  it('reads a File (whose `bytes` is a method in recent engines) by its contents', async () => {
    const lib = await library();
    const file = new File(['Kites fly in steady wind.'], 'kites.txt', { type: 'text/plain' });
    expect(typeof (file as unknown as { bytes?: unknown }).bytes).not.toBe('object');
    const res = await lib.addFiles([file]);
    expect(res.added.map((d) => d.title)).toEqual(['kites']);
  });
});

describe('Library across tabs and storage limits', () => {
  it('a second tab on the same database follows additions and removals in its index', async () => {
    const dbName = `tabs-${n++}`;
    const a = await library({ dbName });
    let changes = 0;
    const b = await library({ dbName, onExternalChange: () => changes++ });
    const { added } = await a.addFiles([BEES]);
    await vi.waitFor(async () => expect(await b.size()).toBe(1));
    expect((await b.retriever.retrieve('waggle dance', 1))[0]!.title).toBe('Bees');
    await a.remove(added[0]!.id);
    await vi.waitFor(async () => expect(await b.size()).toBe(0));
    expect(changes).toBe(2);
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
});

describe('Library and a site that rebuilds its pre-built index', () => {
  it('replaces the site’s documents with the new index on the next visit and keeps the user’s own', async () => {
    const { mkdirSync } = await import('node:fs');
    const site = mkdtempSync(join(tmpdir(), 'rebuilt-'));
    mkdirSync(join(site, 'index'));
    const embedder = new HashEmbedder();
    const publish = async (createdAt: string, docs: Array<[string, string]>) => {
      const documents = docs.map(([id, text]) => ({ id, name: `${id}.txt`, title: id, format: 'text' as const, text }));
      const passages = docs.map(([id, text]) => ({ id: `${id}#0`, docId: id, title: id, text, index: 0, start: 0, end: text.length }));
      const out = encodePrebuilt({ model: null, documents, passages, vectors: await embedder.embed(passages.map((p) => `${p.title}\n${p.text}`)), createdAt });
      writeFileSync(join(site, 'index/library.json'), out.json);
      writeFileSync(join(site, 'index/vectors.bin'), out.vectors);
      writeFileSync(join(site, 'index/version.json'), out.version);
    };
    const dbName = `rebuilt-${n++}`;
    const opts = { dbName, seed: true, baseUrl: 'http://site.test/', fetch: fileFetch(site) };
    await publish('2026-01-01T00:00:00.000Z', [['anchors', 'Anchors hold ships.'], ['sails', 'Sails catch wind.']]);
    const first = await library(opts);
    await first.addText('Mine', 'My own notes on knots.');
    first.close();

    const same = fileFetch(site);
    const unchanged = await library({ ...opts, fetch: same });
    expect(same.requests.map((u) => u.replace('http://site.test/', ''))).toEqual(['index/version.json']);
    unchanged.close();

    await publish('2026-02-01T00:00:00.000Z', [['sails', 'Sails catch wind.'], ['rudders', 'Rudders steer boats.']]);
    const again = await library(opts);
    expect((await again.list()).map((d) => d.title).sort()).toEqual(['Mine', 'rudders', 'sails']);
    expect(await again.size()).toBe(3);
    expect((await again.retriever.retrieve('rudders steer', 1))[0]!.title).toBe('rudders');
    expect(again.warnings).toEqual([]);
  });
});
