// IndexedDB and the indexes kept in step, one document at a time. IndexedDB holds the truth;
// the indexes (vector and word) are re-opened or rebuilt from it at start-up, and every change
// here goes to both. Each document's passage ids are remembered so it can be taken out of the
// index again.
import type { Passage } from '../core/ports';
import { normalise } from '../vector/vector-index';
import type { IndexHandle } from './index-host';
import { embeddingText, type PreparedDocument } from './ingest';
import { rowsOf, type LibraryStorage, type StoredDocument, type StoredOriginal } from './store';
import type { LibraryDocument } from './types';

/** The document a passage id belongs to (`${docId}#${index}`, core/chunk.ts); an id of another shape matches no document and is re-read. */
const docOfPassage = (id: string): string => {
  const at = id.lastIndexOf('#');
  return at < 0 ? '' : id.slice(0, at);
};

/** The list is oldest first: documents of one batch added within the same millisecond keep the order they were added in. */
let lastAdded = 0;
const addedNow = () => (lastAdded = Math.max(Date.now(), lastAdded + 1));

export class Catalog {
  private passageIds = new Map<string, string[]>();

  /** Whether a document's stored vectors belong to the embedding model the page runs now (reembed.ts). */
  fits: (doc: Pick<StoredDocument, 'embedder'>) => boolean = () => true;

  constructor(
    readonly store: LibraryStorage,
    readonly index: IndexHandle,
    /** Tells other tabs which document changed (see sync.ts). */
    private readonly announce: (docId: string) => void,
    /** The embedding model this page runs, recorded with each document's vectors. */
    private readonly embedderId?: string,
  ) {}

  /** Searched by meaning: embedded, by the model the page runs now. Any other is found by its words only. */
  private searchable(d: StoredDocument): boolean {
    return !d.pendingEmbedding && this.fits(d);
  }

  /**
   * Fills the (empty) vector index: from its saved state when it has one (a compact index),
   * reconciled with the stored documents like the word index (documents added or removed since
   * it was saved are applied; nothing else is read), else from every document's stored vectors,
   * one document at a time. Notes the passages of documents not embedded yet, or embedded by
   * another model than the page's (their vectors stay stored, unsearched, until re-embedded).
   */
  async loadVectors(opts: { name: string | null; stamp: string; warnings: string[] }): Promise<void> {
    const docs = await this.store.listDocuments();
    const embedded = docs.filter((d) => this.searchable(d));
    const expected = embedded.reduce((n, d) => n + d.passageCount, 0);
    const opened = await this.index.openVectors({ name: opts.name, stamp: opts.stamp, expected });
    if (opened.warning) opts.warnings.push(opened.warning);
    if (opened.ids) {
      const want = new Map(embedded.map((d) => [d.id, d.passageCount]));
      const held = new Map<string, string[]>();
      for (const id of opened.ids) {
        const doc = docOfPassage(id);
        const list = held.get(doc);
        if (list) list.push(id);
        else held.set(doc, [id]);
      }
      const stale: string[] = [];
      for (const [doc, ids] of held) {
        if (want.get(doc) === ids.length) this.passageIds.set(doc, ids);
        else stale.push(...ids);
      }
      if (stale.length > 0) await this.index.remove(stale);
    }
    for (const d of embedded) {
      if (this.passageIds.has(d.id)) continue;
      const v = await this.store.getVectors(d.id);
      if (!v) continue;
      this.passageIds.set(v.docId, v.ids);
      await this.index.add(v.ids, rowsOf(v));
    }
    for (const d of docs)
      if (!this.searchable(d))
        this.passageIds.set(
          d.id,
          (await this.store.passagesOf(d.id)).map((p) => p.id),
        );
  }

  /** Documents kept without vectors, waiting for the embedding model. */
  async pending(): Promise<StoredDocument[]> {
    return (await this.store.listDocuments()).filter((d) => d.pendingEmbedding);
  }

  /** Documents whose vectors another embedding model made: found by words until embedded again. */
  async stale(): Promise<StoredDocument[]> {
    return (await this.store.listDocuments()).filter((d) => !d.pendingEmbedding && !this.fits(d));
  }

  /** Every passage id the library holds. */
  passageIdList(): string[] {
    return [...this.passageIds.values()].flat();
  }

  /**
   * Writes a document, its passages and their vectors atomically, then indexes them (replacing
   * what an earlier version of the same document put there) and tells other tabs.
   */
  async put(
    { id, parsed, passages }: PreparedDocument,
    vectors: Float32Array[],
    origin: StoredDocument['origin'],
    opts: { signal?: AbortSignal; bytes?: number; pendingEmbedding?: boolean; original?: StoredOriginal } = {},
  ): Promise<LibraryDocument> {
    // Checked before anything is written, so a bad vector cannot leave a half-indexed document.
    vectors.forEach((v) => normalise(v, v.length));
    opts.signal?.throwIfAborted();
    const existing = await this.store.getDocument(id);
    const doc: StoredDocument = {
      id,
      title: parsed.title,
      name: parsed.name,
      format: parsed.format,
      text: parsed.text,
      passageCount: passages.length,
      ...(parsed.ocr ? { ocr: parsed.ocr } : {}),
      ...(parsed.layout ? { layout: parsed.layout } : {}),
      ...(opts.bytes !== undefined ? { bytes: opts.bytes } : {}),
      addedAt: existing?.addedAt ?? addedNow(),
      origin: existing?.origin ?? origin,
      ...(opts.pendingEmbedding ? { pendingEmbedding: true as const } : {}),
      ...(!opts.pendingEmbedding && vectors.length > 0 && this.embedderId ? { embedder: this.embedderId } : {}),
    };
    await this.store.putDocument(doc, passages, vectors, opts.original);
    const ids = passages.map((p) => p.id);
    // In one step: a document put back (re-embedded, re-read) stays found while it is replaced.
    await this.index.replace(
      this.passageIds.get(id) ?? [],
      ids,
      vectors,
      passages.map((p) => ({ id: p.id, text: embeddingText(p) })),
    );
    this.passageIds.set(id, ids);
    this.announce(id);
    // As stored: the store decides what of the original is kept (originalBytes).
    const { text: _text, ...listed } = (await this.store.getDocument(id)) ?? doc;
    return listed;
  }

  /** Removes a document from IndexedDB and the indexes; other tabs are told only when asked (a user's removal). */
  async remove(docId: string, opts: { announce: boolean }): Promise<boolean> {
    const removed = await this.store.removeDocument(docId);
    await this.index.remove(this.passageIds.get(docId) ?? []);
    this.passageIds.delete(docId);
    if (removed && opts.announce) this.announce(docId);
    return removed;
  }

  /** Brings one document's entries in the indexes in line with IndexedDB, after another tab changed it. */
  async follow(docId: string): Promise<void> {
    const doc = await this.store.getDocument(docId);
    const v = doc && this.fits(doc) ? await this.store.getVectors(docId) : undefined;
    await this.index.remove(this.passageIds.get(docId) ?? []);
    this.passageIds.delete(docId);
    if (v) {
      await this.index.add(v.ids, rowsOf(v));
      const passages = (await this.store.getPassages(v.ids)).filter((p): p is Passage => !!p);
      await this.index.addText(passages.map((p) => ({ id: p.id, text: embeddingText(p) })));
      this.passageIds.set(docId, v.ids);
    } else if (doc) {
      const passages = await this.store.passagesOf(docId);
      await this.index.addText(passages.map((p) => ({ id: p.id, text: embeddingText(p) })));
      this.passageIds.set(
        docId,
        passages.map((p) => p.id),
      );
    }
  }
}
