// The original file is kept with its document (IndexedDB, or memory for a visit without
// storage), replaced and removed with it; a library written by the previous schema opens
// unchanged, its documents without originals and its passages without places.
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import type { Passage } from '../../../src/core/ports';
import { MemoryLibraryStore } from '../../../src/library/memory-store';
import { LIBRARY_DB_VERSION, LibraryStore, type LibraryStorage, type StoredDocument } from '../../../src/library/store';

let n = 0;
const opened: LibraryStorage[] = [];
afterEach(() => opened.splice(0).forEach((s) => s.close()));

const doc = (id: string): [StoredDocument, Passage[], Float32Array[]] => [
  { id, title: `T ${id}`, name: `${id}.pdf`, format: 'pdf', text: 'x', passageCount: 0, addedAt: 1, origin: 'user' },
  [{ id: `${id}#0`, docId: id, title: `T ${id}`, text: 'x', index: 0, source: { page: 1 } }],
  [new Float32Array([1, 0])],
];
const original = (id: string, body: string) => ({
  docId: id,
  name: `${id}.pdf`,
  type: 'application/pdf',
  blob: new Blob([body], { type: 'application/pdf' }),
});

describe.each([
  ['IndexedDB', async () => LibraryStore.open(`originals-${n++}`)],
  ['memory', async () => new MemoryLibraryStore()],
])('originals in %s', (_kind, make) => {
  it('keeps the file with its document, counts its size, keeps it through a re-write without one, and removes it with the document', async () => {
    const s = await make();
    opened.push(s);
    await s.putDocument(...doc('a'), original('a', '%PDF-1.4 body'));
    expect((await s.getDocument('a'))?.originalBytes).toBe(13);
    const got = await s.getOriginal('a');
    expect(got?.type).toBe('application/pdf');
    expect(await got!.blob.text()).toBe('%PDF-1.4 body');
    // Re-embedding writes the document again without the file at hand: the file stays.
    await s.putDocument(...doc('a'));
    expect((await s.getDocument('a'))?.originalBytes).toBe(13);
    expect(await s.getOriginal('a')).toBeDefined();
    // Added again from another file with the same text: the new file replaces the old.
    await s.putDocument(...doc('a'), original('a', '%PDF-1.7'));
    expect((await s.getDocument('a'))?.originalBytes).toBe(8);
    expect(await s.removeDocument('a')).toBe(true);
    expect(await s.getOriginal('a')).toBeUndefined();
  });

  it('a document added without its original (the setting off) has none', async () => {
    const s = await make();
    opened.push(s);
    await s.putDocument(...doc('b'));
    expect(await s.getOriginal('b')).toBeUndefined();
    expect((await s.getDocument('b'))?.originalBytes).toBeUndefined();
  });
});

describe('a library from the previous schema', () => {
  it('opens with its documents and passages, which have no original and no place', async () => {
    const name = `v1-library-${n++}`;
    const v1 = await openDB(name, 1, {
      upgrade(db) {
        db.createObjectStore('documents', { keyPath: 'id' });
        db.createObjectStore('passages', { keyPath: 'id' }).createIndex('docId', 'docId');
        db.createObjectStore('vectors', { keyPath: 'docId' });
        db.createObjectStore('meta');
      },
    });
    const [d, ps] = doc('old');
    await v1.put('documents', { ...d, passageCount: 1 });
    const { source: _s, ...p } = ps[0]!;
    await v1.put('passages', p);
    v1.close();
    const s = await LibraryStore.open(name);
    opened.push(s);
    expect(LIBRARY_DB_VERSION).toBe(2);
    expect((await s.listDocuments()).map((x) => x.id)).toEqual(['old']);
    const [passage] = await s.passagesOf('old');
    expect(passage?.source).toBeUndefined();
    expect(await s.getOriginal('old')).toBeUndefined();
    // And it takes new documents with originals from then on.
    await s.putDocument(...doc('new'), original('new', '%PDF'));
    expect(await s.getOriginal('new')).toBeDefined();
  });
});
