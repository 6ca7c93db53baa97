// Opens a library over fake IndexedDB, the in-process flat index and the hashed test embedder,
// for the tests of src/library's modules; every library opened is closed after each test.
import 'fake-indexeddb/auto';
import { resolve } from 'node:path';
import { afterEach } from 'vitest';
import { FlatIndex } from '../../../src/vector/flat-index';
import { IndexHost } from '../../../src/library/index-host';
import { Library, type LibraryOptions } from '../../../src/library/library';
import { HashEmbedder } from '../../doubles/hash-embedder';

export const PUBLIC = resolve(__dirname, '../../../public');
export const enc = (s: string) => new TextEncoder().encode(s);

let n = 0;
/** A database name no other test in this file uses. */
export const freshDb = (prefix = 'lib') => `${prefix}-${n++}`;

const open: Library[] = [];
afterEach(() => open.splice(0).forEach((l) => l.close()));

export async function library(over: Partial<LibraryOptions> = {}): Promise<Library> {
  const lib = await Library.open({
    embedder: new HashEmbedder(),
    index: new IndexHost('flat', (_k, dim) => new FlatIndex(dim)),
    dbName: freshDb(),
    seed: false,
    ...over,
  });
  open.push(lib);
  return lib;
}

export const BEES = {
  name: 'bees.md',
  bytes: enc('# Bees\n\nForager bees perform a waggle dance to show where flowers are.'),
};
export const TIDES = {
  name: 'tides.txt',
  bytes: enc('The moon raises two tidal bulges. Spring tides come at full moon.'),
};
