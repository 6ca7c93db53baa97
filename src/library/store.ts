// The library in IndexedDB: documents, passages and vectors. Vectors are stored
// as one binary record per document (ArrayBuffer of row-major float32), so a
// document is always written, replaced or removed together, in one transaction.
import { openDB, wrap, type DBSchema, type IDBPDatabase } from 'idb';
import type { Passage } from '../core/ports';
import type { DocLayout } from '../core/source-location';
import type { DocFormat, OcrRecord } from './parse';
import type { LexicalSnapshot, StoredLexicalSnapshot } from './lexical/lexical-index';

export interface StoredDocument {
  id: string;
  title: string;
  /** File name it came from (or the title for pasted text). */
  name: string;
  format: DocFormat;
  /** Extracted text; passage offsets point into it. */
  text: string;
  passageCount: number;
  /** Size of the original file in bytes (absent for pre-built documents). */
  bytes?: number;
  addedAt: number;
  /** Where it came from: the user, the shipped sample, or a pre-built index. */
  origin: 'user' | 'sample' | 'prebuilt';
  /**
   * Kept with its text and word index but no vectors, because the embedding model could not
   * run when it was added: found by words until it is embedded (absent once it is).
   */
  pendingEmbedding?: true;
  /**
   * The embedding model its vectors were made with (absent for documents stored before it was
   * recorded: the library's one model then, meta `embedder`). Only vectors of the model the page
   * runs now are searched, so two models' vectors never meet in one index.
   */
  embedder?: string;
  /** Pages whose text was recognised from their image, and the recogniser's mean confidence (scans and photos only). */
  ocr?: OcrRecord;
  /** Where its pages and headings stand in `text` (absent for documents added before places were recorded, and for plain text). */
  layout?: DocLayout;
  /** Size in bytes of the original file kept beside it for the source viewer (absent when none is kept). */
  originalBytes?: number;
}

/** The file a document was made from, kept for the source viewer. */
export interface StoredOriginal {
  docId: string;
  name: string;
  /** MIME type, when known. */
  type: string;
  blob: Blob;
}

export interface DocumentVectors {
  docId: string;
  dim: number;
  /** Passage ids in row order. */
  ids: string[];
  /** ids.length × dim float32, row-major. */
  data: ArrayBuffer;
}

interface LibrarySchema extends DBSchema {
  documents: { key: string; value: StoredDocument };
  passages: { key: string; value: Passage; indexes: { docId: string } };
  vectors: { key: string; value: DocumentVectors };
  meta: { key: string; value: unknown };
  originals: { key: string; value: StoredOriginal };
}

/**
 * 1: documents, passages, vectors, meta. 2: originals (the files kept for the source viewer).
 * A version-1 library opens unchanged: its documents simply have no original and their
 * passages no place.
 */
export const LIBRARY_DB_VERSION = 2;

export const DEFAULT_DB_NAME = 'selfrag-library';

/**
 * What the library needs from its storage: IndexedDB (LibraryStore), or memory for a visit
 * where the browser gives the page no storage (MemoryLibraryStore).
 */
export type LibraryStorage = Pick<
  LibraryStore,
  | 'putDocument'
  | 'removeDocument'
  | 'listDocuments'
  | 'getDocument'
  | 'getPassages'
  | 'passagesOf'
  | 'getVectors'
  | 'allVectors'
  | 'getLexical'
  | 'putLexical'
  | 'getMeta'
  | 'setMeta'
  | 'getOriginal'
  | 'clear'
  | 'close'
> & {
  /** False for memory: nothing outlives the page, and other tabs cannot see it. */
  readonly persistent: boolean;
};

const LEXICAL_KEY = 'lexicalIndex';

export class LibraryStore {
  readonly persistent = true;
  private constructor(private readonly db: IDBPDatabase<LibrarySchema>) {}

  /**
   * Opens the library's database, in the page's own IndexedDB or in `factory`: the
   * unpartitioned IndexedDB a Storage Access handle gives an embedded page.
   */
  static async open(name = DEFAULT_DB_NAME, factory?: IDBFactory): Promise<LibraryStore> {
    const upgrade = (db: IDBPDatabase<LibrarySchema>, oldVersion: number) => {
      if (oldVersion < 1) {
        db.createObjectStore('documents', { keyPath: 'id' });
        db.createObjectStore('passages', { keyPath: 'id' }).createIndex('docId', 'docId');
        db.createObjectStore('vectors', { keyPath: 'docId' });
        db.createObjectStore('meta');
      }
      if (oldVersion < 2) db.createObjectStore('originals', { keyPath: 'docId' });
    };
    if (factory) return new LibraryStore(await openWith(factory, name, upgrade, LIBRARY_DB_VERSION));
    const db = await openDB<LibrarySchema>(name, LIBRARY_DB_VERSION, {
      upgrade,
      // Another tab upgrading the schema: let it, this connection is stale anyway.
      blocking() {
        db.close();
      },
    });
    return new LibraryStore(db);
  }

  /**
   * Writes (or replaces) a document with its passages and vectors, and its original file when
   * given, in one transaction: if anything fails, the library is as it was before. Without an
   * original, one kept earlier stays (re-embedding does not have the file at hand).
   */
  async putDocument(
    doc: StoredDocument,
    passages: Passage[],
    vectors: Float32Array[],
    original?: StoredOriginal,
  ): Promise<void> {
    const { dim, data } = packVectors(doc, passages, vectors);
    const tx = this.db.transaction(['documents', 'passages', 'vectors', 'originals'], 'readwrite');
    try {
      const old = await tx.objectStore('passages').index('docId').getAllKeys(doc.id);
      await Promise.all(old.map((k) => tx.objectStore('passages').delete(k)));
      const kept = original
        ? original.blob.size
        : (await tx.objectStore('originals').getKey(doc.id)) !== undefined
          ? (await tx.objectStore('documents').get(doc.id))?.originalBytes
          : undefined;
      const { originalBytes: _stale, ...rest } = doc;
      await tx
        .objectStore('documents')
        .put({ ...rest, passageCount: passages.length, ...(kept !== undefined ? { originalBytes: kept } : {}) });
      if (original) await tx.objectStore('originals').put(original);
      for (const p of passages) await tx.objectStore('passages').put(p);
      if (doc.pendingEmbedding) await tx.objectStore('vectors').delete(doc.id);
      else
        await tx.objectStore('vectors').put({ docId: doc.id, dim, ids: passages.map((p) => p.id), data: data.buffer });
      await tx.done;
    } catch (e) {
      abortQuietly(tx);
      await tx.done.catch(() => undefined);
      throw e;
    }
  }

  /** Removes a document, its passages, its vectors and its original; false if it was not there. */
  async removeDocument(id: string): Promise<boolean> {
    const tx = this.db.transaction(['documents', 'passages', 'vectors', 'originals'], 'readwrite');
    const exists = (await tx.objectStore('documents').getKey(id)) !== undefined;
    if (exists) {
      const keys = await tx.objectStore('passages').index('docId').getAllKeys(id);
      await Promise.all([
        tx.objectStore('documents').delete(id),
        tx.objectStore('vectors').delete(id),
        tx.objectStore('originals').delete(id),
        ...keys.map((k) => tx.objectStore('passages').delete(k)),
      ]);
    }
    await tx.done;
    return exists;
  }

  async listDocuments(): Promise<StoredDocument[]> {
    const docs = await this.db.getAll('documents');
    return docs.sort((a, b) => a.addedAt - b.addedAt || a.title.localeCompare(b.title));
  }

  async getDocument(id: string): Promise<StoredDocument | undefined> {
    return this.db.get('documents', id);
  }

  async getPassages(ids: readonly string[]): Promise<Array<Passage | undefined>> {
    const tx = this.db.transaction('passages');
    const out = await Promise.all(ids.map((id) => tx.store.get(id)));
    await tx.done;
    return out;
  }

  async passagesOf(docId: string): Promise<Passage[]> {
    const ps = await this.db.getAllFromIndex('passages', 'docId', docId);
    return ps.sort((a, b) => a.index - b.index);
  }

  /** The original file of a document, when one was kept. */
  async getOriginal(docId: string): Promise<StoredOriginal | undefined> {
    return this.db.get('originals', docId);
  }

  async getVectors(docId: string): Promise<DocumentVectors | undefined> {
    return this.db.get('vectors', docId);
  }

  async allVectors(): Promise<DocumentVectors[]> {
    return this.db.getAll('vectors');
  }

  /**
   * The word index's snapshot (in `meta`, so the schema is unchanged). An older version's
   * snapshot comes back as it is, for the index to refuse and rebuild once.
   */
  async getLexical(): Promise<StoredLexicalSnapshot | undefined> {
    const v = await this.getMeta<StoredLexicalSnapshot & { blob?: unknown }>(LEXICAL_KEY);
    if (!v || typeof v !== 'object' || typeof v.format !== 'string') return undefined;
    return v.blob instanceof Blob
      ? ({ format: v.format, bytes: new Uint8Array(await v.blob.arrayBuffer()) } as LexicalSnapshot)
      : v;
  }

  /**
   * Stored as a Blob, not as bytes in the record: Chromium refuses a value over 127 MiB
   * ("The serialized keys and/or value are too large"), which a million passages' word index
   * passes, while a Blob is kept beside the record (150 MB measured: put in 0.7 s).
   */
  async putLexical(s: LexicalSnapshot): Promise<void> {
    await this.setMeta(LEXICAL_KEY, { format: s.format, blob: new Blob([s.bytes as Uint8Array<ArrayBuffer>]) });
  }

  async getMeta<T>(key: string): Promise<T | undefined> {
    return (await this.db.get('meta', key)) as T | undefined;
  }

  async setMeta(key: string, value: unknown): Promise<void> {
    await this.db.put('meta', value, key);
  }

  async clear(): Promise<void> {
    const tx = this.db.transaction(['documents', 'passages', 'vectors', 'meta', 'originals'], 'readwrite');
    await Promise.all([
      tx.objectStore('documents').clear(),
      tx.objectStore('passages').clear(),
      tx.objectStore('vectors').clear(),
      tx.objectStore('meta').clear(),
      tx.objectStore('originals').clear(),
      tx.done,
    ]);
  }

  close(): void {
    this.db.close();
  }
}

/** One document's vectors as one row-major buffer, after checking they belong together. */
export function packVectors(
  doc: StoredDocument,
  passages: Passage[],
  vectors: Float32Array[],
): { dim: number; data: Float32Array<ArrayBuffer> } {
  if (doc.pendingEmbedding && vectors.length > 0)
    throw new Error('a document waiting to be embedded is stored without vectors');
  if (!doc.pendingEmbedding && passages.length !== vectors.length)
    throw new Error(`${passages.length} passages but ${vectors.length} vectors`);
  if (passages.some((p) => p.docId !== doc.id))
    throw new Error('every passage must belong to the document being stored');
  const dim = vectors[0]?.length ?? 0;
  const data = new Float32Array(vectors.length * dim);
  vectors.forEach((v, i) => {
    if (v.length !== dim) throw new Error(`passage ${i} has a ${v.length}-d vector, expected ${dim}`);
    data.set(v, i * dim);
  });
  return { dim, data };
}

/** idb's openDB, on a given IDBFactory (idb's own always uses the global one): the Storage Access handle's. */
export async function openWith<S extends DBSchema>(
  factory: IDBFactory,
  name: string,
  upgrade: (db: IDBPDatabase<S>, oldVersion: number) => void,
  version = 1,
): Promise<IDBPDatabase<S>> {
  const request = factory.open(name, version);
  request.addEventListener('upgradeneeded', (e) =>
    upgrade(wrap(request.result) as unknown as IDBPDatabase<S>, e.oldVersion),
  );
  const db = (await wrap(request)) as unknown as IDBPDatabase<S>;
  db.addEventListener('versionchange', () => db.close());
  return db;
}

function abortQuietly(tx: { abort(): void }): void {
  try {
    tx.abort();
  } catch {
    // Already finished or aborted by the failed request.
  }
}

/** Rows of a stored vector record as separate vectors (views, no copy). */
export function rowsOf(v: DocumentVectors): Float32Array[] {
  const all = new Float32Array(v.data);
  return v.ids.map((_, i) => all.subarray(i * v.dim, (i + 1) * v.dim));
}
