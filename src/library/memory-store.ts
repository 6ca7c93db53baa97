// The library kept in memory for one visit, for a browser that gives the page no storage
// (a cross-site frame with third-party storage blocked, some private modes). Same contract
// as LibraryStore: values are copied in and out, as IndexedDB's structured clone does, so
// a caller changing an object it got back cannot change the library.
import type { Passage } from '../core/ports';
import type { LexicalSnapshot, StoredLexicalSnapshot } from './lexical/lexical-index';
import {
  packVectors,
  type DocumentVectors,
  type LibraryStorage,
  type StoredDocument,
  type StoredOriginal,
} from './store';

const LEXICAL_KEY = 'lexicalIndex';

export class MemoryLibraryStore implements LibraryStorage {
  readonly persistent = false;
  private documents = new Map<string, StoredDocument>();
  private passages = new Map<string, Passage>();
  private vectors = new Map<string, DocumentVectors>();
  private meta = new Map<string, unknown>();
  /** Blobs are immutable: kept as given, for the visit only. */
  private originals = new Map<string, StoredOriginal>();

  async putDocument(
    doc: StoredDocument,
    passages: Passage[],
    vectors: Float32Array[],
    original?: StoredOriginal,
  ): Promise<void> {
    const { dim, data } = packVectors(doc, passages, vectors);
    // Checked before anything changes, as IndexedDB's transaction would roll back a keyless put.
    if (passages.some((p) => typeof p.id !== 'string')) throw new Error('every passage needs an id');
    this.dropPassages(doc.id);
    const { originalBytes: _stale, ...rest } = doc;
    const kept = original
      ? original.blob.size
      : this.originals.has(doc.id)
        ? this.documents.get(doc.id)?.originalBytes
        : undefined;
    this.documents.set(
      doc.id,
      structuredClone({
        ...rest,
        passageCount: passages.length,
        ...(kept !== undefined ? { originalBytes: kept } : {}),
      }),
    );
    if (original) this.originals.set(doc.id, { ...original });
    for (const p of passages) this.passages.set(p.id, structuredClone(p));
    if (doc.pendingEmbedding) this.vectors.delete(doc.id);
    else this.vectors.set(doc.id, { docId: doc.id, dim, ids: passages.map((p) => p.id), data: data.buffer });
  }

  async removeDocument(id: string): Promise<boolean> {
    const exists = this.documents.delete(id);
    this.vectors.delete(id);
    this.originals.delete(id);
    this.dropPassages(id);
    return exists;
  }

  async listDocuments(): Promise<StoredDocument[]> {
    return [...this.documents.values()]
      .map((d) => structuredClone(d))
      .sort((a, b) => a.addedAt - b.addedAt || a.title.localeCompare(b.title));
  }

  async getDocument(id: string): Promise<StoredDocument | undefined> {
    const d = this.documents.get(id);
    return d && structuredClone(d);
  }

  async getPassages(ids: readonly string[]): Promise<Array<Passage | undefined>> {
    return ids.map((id) => {
      const p = this.passages.get(id);
      return p && structuredClone(p);
    });
  }

  async passagesOf(docId: string): Promise<Passage[]> {
    return [...this.passages.values()]
      .filter((p) => p.docId === docId)
      .map((p) => structuredClone(p))
      .sort((a, b) => a.index - b.index);
  }

  async getOriginal(docId: string): Promise<StoredOriginal | undefined> {
    const o = this.originals.get(docId);
    return o && { ...o };
  }

  async getVectors(docId: string): Promise<DocumentVectors | undefined> {
    const v = this.vectors.get(docId);
    return v && { ...v, ids: [...v.ids], data: v.data.slice(0) };
  }

  async allVectors(): Promise<DocumentVectors[]> {
    return [...this.vectors.keys()].map((k) => {
      const v = this.vectors.get(k)!;
      return { ...v, ids: [...v.ids], data: v.data.slice(0) };
    });
  }

  async getLexical(): Promise<StoredLexicalSnapshot | undefined> {
    const v = this.meta.get(LEXICAL_KEY) as StoredLexicalSnapshot | undefined;
    return v && typeof v === 'object' && typeof v.format === 'string' ? structuredClone(v) : undefined;
  }

  async putLexical(s: LexicalSnapshot): Promise<void> {
    this.meta.set(LEXICAL_KEY, structuredClone(s));
  }

  async getMeta<T>(key: string): Promise<T | undefined> {
    return structuredClone(this.meta.get(key)) as T | undefined;
  }

  async setMeta(key: string, value: unknown): Promise<void> {
    this.meta.set(key, structuredClone(value));
  }

  async clear(): Promise<void> {
    this.documents.clear();
    this.passages.clear();
    this.vectors.clear();
    this.meta.clear();
    this.originals.clear();
  }

  close(): void {
    // Nothing to release: the maps go with the page.
  }

  private dropPassages(docId: string): void {
    for (const [id, p] of this.passages) if (p.docId === docId) this.passages.delete(id);
  }
}
