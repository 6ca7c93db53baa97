import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Passage } from '../../../src/core/ports';
import { LibraryStore, rowsOf, type StoredDocument } from '../../../src/library/store';

let n = 0;
const stores: LibraryStore[] = [];
async function open(name = `store-test-${n++}`): Promise<LibraryStore> {
  const s = await LibraryStore.open(name);
  stores.push(s);
  return s;
}
afterEach(() => stores.splice(0).forEach((s) => s.close()));

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

describe('LibraryStore', () => {
  it('stores documents, passages and binary vectors, and reads them after reopening', async () => {
    const s = await open('persist');
    await s.putDocument(...doc('a', 3));
    s.close();
    const again = await open('persist');
    const [d] = await again.listDocuments();
    expect(d).toMatchObject({ id: 'a', passageCount: 3 });
    expect((await again.passagesOf('a')).map((p) => p.text)).toEqual(['p0', 'p1', 'p2']);
    const [v] = await again.allVectors();
    expect(v!.data).toBeInstanceOf(ArrayBuffer);
    expect(v!.ids).toEqual(['a#0', 'a#1', 'a#2']);
    expect(rowsOf(v!).map((r) => Array.from(r))).toEqual([
      [0, 1, 2],
      [1, 1, 2],
      [2, 1, 2],
    ]);
  });

  it('removing a document removes its passages and vectors, and it can be added again', async () => {
    const s = await open();
    await s.putDocument(...doc('a', 2));
    await s.putDocument(...doc('b', 1));
    expect(await s.removeDocument('a')).toBe(true);
    expect(await s.removeDocument('a')).toBe(false);
    expect((await s.listDocuments()).map((d) => d.id)).toEqual(['b']);
    expect(await s.passagesOf('a')).toEqual([]);
    expect(await s.getPassages(['a#0', 'b#0'])).toEqual([undefined, expect.objectContaining({ id: 'b#0' })]);
    expect((await s.allVectors()).map((v) => v.docId)).toEqual(['b']);
    await s.putDocument(...doc('a', 2));
    expect((await s.listDocuments()).map((d) => d.id).sort()).toEqual(['a', 'b']);
  });

  it('replacing a document drops passages the new version no longer has', async () => {
    const s = await open();
    await s.putDocument(...doc('a', 4));
    await s.putDocument(...doc('a', 2));
    expect((await s.passagesOf('a')).map((p) => p.id)).toEqual(['a#0', 'a#1']);
    expect((await s.getDocument('a'))?.passageCount).toBe(2);
  });

  it('a write that fails part-way leaves the library exactly as before', async () => {
    const s = await open();
    await s.putDocument(...doc('a', 2));
    // A replacement of 'a' whose third passage has no key: the put fails after
    // the old passages were deleted and the document and two passages rewritten.
    const [d, ps, vs] = doc('a', 4);
    d.title = 'changed';
    delete (ps[2] as Partial<Passage>).id;
    await expect(s.putDocument(d, ps, vs)).rejects.toThrow();
    expect(await s.getDocument('a')).toMatchObject({ title: 'T a', passageCount: 2 });
    expect((await s.passagesOf('a')).map((p) => p.id)).toEqual(['a#0', 'a#1']);
    expect((await s.allVectors())[0]!.ids).toEqual(['a#0', 'a#1']);
    // And a brand-new document that fails leaves no trace.
    const [d2, ps2, vs2] = doc('c', 3);
    delete (ps2[1] as Partial<Passage>).id;
    await expect(s.putDocument(d2, ps2, vs2)).rejects.toThrow();
    expect((await s.listDocuments()).map((x) => x.id)).toEqual(['a']);
    expect(await s.passagesOf('c')).toEqual([]);
  });

  it('refuses mismatched passages and vectors before writing anything', async () => {
    const s = await open();
    const [d, ps, vs] = doc('a', 2);
    await expect(s.putDocument(d, ps, vs.slice(1))).rejects.toThrow(/2 passages but 1 vectors/);
    await expect(s.putDocument(d, ps, [vs[0]!, new Float32Array(2)])).rejects.toThrow(/expected 3/);
    expect(await s.listDocuments()).toEqual([]);
  });
});
