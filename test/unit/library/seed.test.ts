import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LibraryProgress } from '../../../src/library/library';
import { encodePrebuilt } from '../../../src/library/prebuilt';
import { fileFetch } from '../../doubles/file-fetch';
import { HashEmbedder } from '../../doubles/hash-embedder';
import { freshDb, library, PUBLIC } from './open-library';

describe('seeding from the site: the sample, the pre-built index and its rebuilds', () => {
  it('loads the shipped sample corpus on the first visit only', async () => {
    const dbName = freshDb('seed');
    const opts = {
      dbName,
      seed: true,
      baseUrl: 'http://site.test/',
      fetch: fileFetch(PUBLIC),
      embedder: new HashEmbedder(1024),
    };
    const lib = await library(opts);
    const docs = await lib.list();
    expect(docs.length).toBeGreaterThanOrEqual(4);
    expect(docs.every((d) => d.origin === 'sample' && d.passageCount > 0)).toBe(true);
    expect((await lib.retriever.retrieve('How does the waggle dance show distance?', 1))[0]!.title).toBe(
      'How Honeybee Colonies Work',
    );
    await lib.remove(docs[0]!.id);
    lib.close();
    const again = await library(opts);
    expect(await again.list()).toHaveLength(docs.length - 1);
  });

  it('loads a pre-built index without embedding, and re-embeds it for a different model', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prebuilt-'));
    const embedder = new HashEmbedder();
    const docs = [
      { id: 'doc-1', name: 'x.txt', title: 'Kites', format: 'text' as const, text: 'Kites fly in steady wind.' },
    ];
    const passages = [
      { id: 'doc-1#0', docId: 'doc-1', title: 'Kites', text: 'Kites fly in steady wind.', index: 0, start: 0, end: 25 },
    ];
    const out = encodePrebuilt({
      model: 'hash',
      documents: docs,
      passages,
      vectors: await embedder.embed(['Kites\nKites fly in steady wind.']),
    });
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'index'));
    writeFileSync(join(dir, 'index/library.json'), out.json);
    writeFileSync(join(dir, 'index/vectors.bin'), out.vectors);
    const same = new HashEmbedder();
    const events: LibraryProgress[] = [];
    const lib = await library({
      seed: true,
      baseUrl: 'http://site.test/',
      fetch: fileFetch(dir),
      embedder: same,
      embedderId: 'hash',
      onProgress: (p) => events.push(p),
    });
    // Every document that starts reporting progress also reports its end, so no progress bar is left behind.
    expect(events.map((e) => e.stage)).toEqual(['saving', 'added']);
    expect((await lib.list()).map((d) => [d.title, d.origin])).toEqual([['Kites', 'prebuilt']]);
    expect(same.calls).toBe(0);
    expect((await lib.retriever.retrieve('steady wind', 1))[0]).toMatchObject({
      id: 'doc-1#0',
      score: expect.any(Number),
    });
    const other = new HashEmbedder(16);
    const lib2 = await library({
      seed: true,
      baseUrl: 'http://site.test/',
      fetch: fileFetch(dir),
      embedder: other,
      embedderId: 'other',
    });
    // Opened by its words, embedded after opening.
    expect(await lib2.list()).toMatchObject([{ title: 'Kites', pendingEmbedding: true }]);
    await lib2.idle();
    expect(other.texts).toEqual(['Kites\nKites fly in steady wind.']);
    expect(await lib2.size()).toBe(1);
  });

  it('a broken pre-built index is reported as a warning and the library still opens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'broken-'));
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'index'));
    writeFileSync(
      join(dir, 'index/library.json'),
      '{"format":"selfrag-library","version":1,"documents":[],"passages":[]}',
    );
    const lib = await library({ seed: true, baseUrl: 'http://site.test/', fetch: fileFetch(dir) });
    expect(lib.warnings).toEqual([expect.stringMatching(/vectors\.bin is missing/)]);
    expect(await lib.list()).toEqual([]);
  });

  it('replaces the site’s documents with the new index on the next visit and keeps the user’s own', async () => {
    const { mkdirSync } = await import('node:fs');
    const site = mkdtempSync(join(tmpdir(), 'rebuilt-'));
    mkdirSync(join(site, 'index'));
    const embedder = new HashEmbedder();
    const publish = async (createdAt: string, docs: Array<[string, string]>) => {
      const documents = docs.map(([id, text]) => ({ id, name: `${id}.txt`, title: id, format: 'text' as const, text }));
      const passages = docs.map(([id, text]) => ({
        id: `${id}#0`,
        docId: id,
        title: id,
        text,
        index: 0,
        start: 0,
        end: text.length,
      }));
      const out = encodePrebuilt({
        model: null,
        documents,
        passages,
        vectors: await embedder.embed(passages.map((p) => `${p.title}\n${p.text}`)),
        createdAt,
      });
      writeFileSync(join(site, 'index/library.json'), out.json);
      writeFileSync(join(site, 'index/vectors.bin'), out.vectors);
      writeFileSync(join(site, 'index/version.json'), out.version);
    };
    const dbName = freshDb('rebuilt');
    const opts = { dbName, seed: true, baseUrl: 'http://site.test/', fetch: fileFetch(site) };
    await publish('2026-01-01T00:00:00.000Z', [
      ['anchors', 'Anchors hold ships.'],
      ['sails', 'Sails catch wind.'],
    ]);
    const first = await library(opts);
    await first.addText('Mine', 'My own notes on knots.');
    first.close();

    const same = fileFetch(site);
    const unchanged = await library({ ...opts, fetch: same });
    expect(same.requests.map((u) => u.replace('http://site.test/', ''))).toEqual(['index/version.json']);
    unchanged.close();

    await publish('2026-02-01T00:00:00.000Z', [
      ['sails', 'Sails catch wind.'],
      ['rudders', 'Rudders steer boats.'],
    ]);
    const again = await library(opts);
    expect((await again.list()).map((d) => d.title).sort()).toEqual(['Mine', 'rudders', 'sails']);
    expect(await again.size()).toBe(3);
    expect((await again.retriever.retrieve('rudders steer', 1))[0]!.title).toBe('rudders');
    expect(again.warnings).toEqual([]);
  });
});
