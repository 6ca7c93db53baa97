// The document library the UI talks to: add, remove and list documents, and retrieve passages
// for a question. A thin facade: it opens the parts, runs every change one at a time and saves
// the word index after each; the work itself lives beside it:
//   catalog.ts          the store (IndexedDB, or memory: memory-store.ts) and the indexes kept in step, per document
//   ingest-batch.ts     adding files, with progress, returning what was added, refused and noted
//   retrieval.ts        the hybrid retriever over the library
//   word-index-store.ts the BM25 index's snapshot: load, reconcile, save
//   seed.ts             the site's pre-built index or sample on first visit
//   sharded/            the site's sharded corpus, read by range requests and searched beside it
//   reembed.ts          which documents' vectors fit the page's embedding model; the others re-embedded after opening
//   sync.ts             other tabs on the same database
import { DEFAULT_RETRIEVAL, type PassageJudge, type RetrievalSettings } from '../core/hybrid';
import type { Passage, Retriever } from '../core/ports';
import type { IndexKind } from '../vector/vector-index';
import { Catalog } from './catalog';
import { embedDocument, type FileLike } from './ingest';
import { ingestBatch } from './ingest-batch';
import { bareModel } from './prebuilt';
import { reembedStale, vectorsFit } from './reembed';
import { libraryRetriever } from './retrieval';
import { seedLibrary } from './seed';
import { siteCorpus, type SiteCorpus } from './sharded/site-corpus';
import { DEFAULT_DB_NAME, LibraryStore, type LibraryStorage, type StoredDocument, type StoredOriginal } from './store';
import { openSync, type LibrarySync } from './sync';
import type { VectorStatus } from './index-host';
import type { AddResult, LibraryDocument, LibraryOptions } from './types';
import { openWordIndex, saveWordIndex } from './word-index-store';

export type { AddResult, LibraryDocument, LibraryOptions, LibraryProgress } from './types';
export type { FileLike } from './ingest';
export { storageFullMessage } from './quota';

export class Library {
  /** The core's Retriever port over this library. */
  readonly retriever: Retriever;
  /** False when the library lives in memory for this visit only. */
  get persistent(): boolean {
    return this.store.persistent;
  }

  /** Problems at start-up that did not stop the library from opening, for the UI to show. */
  readonly warnings: string[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private sync: LibrarySync | null = null;
  private readonly catalog: Catalog;
  /** The site's sharded corpus, searched beside the library (opened on the first question). */
  private readonly corpus: SiteCorpus | null;

  private constructor(
    private readonly store: LibraryStorage,
    private readonly opts: LibraryOptions,
  ) {
    this.catalog = new Catalog(store, opts.index, (docId) => this.sync?.announce(docId), opts.embedderId);
    this.corpus =
      opts.siteCorpus === false || !opts.baseUrl
        ? null
        : siteCorpus({
            baseUrl: opts.baseUrl,
            ...(opts.fetch ? { fetch: opts.fetch } : {}),
            ...(opts.embedderId ? { embedderId: opts.embedderId } : {}),
            onProblem: (m) => this.warnings.push(m),
            ...(opts.onSiteCorpus ? { onOpen: opts.onSiteCorpus } : {}),
          });
    this.retriever = this.retrieverWith(DEFAULT_RETRIEVAL);
  }

  /** A Retriever searching words, meaning or both, with or without a re-rank (the cross-encoder, or `judge` where the settings name the generator). */
  retrieverWith(settings: RetrievalSettings, judge?: PassageJudge): Retriever {
    return libraryRetriever(this.store, this.opts, settings, this.corpus ?? undefined, judge);
  }

  /** Opens the library, rebuilds the index from IndexedDB and seeds a first visit. */
  static async open(opts: LibraryOptions): Promise<Library> {
    const dbName = opts.dbName ?? DEFAULT_DB_NAME;
    const lib = new Library(await (opts.openStore ?? ((n: string) => LibraryStore.open(n)))(dbName), opts);
    // Listening before start-up: a change announced meanwhile waits in the queue behind it.
    // A library in memory is this page's alone: another tab's changes are not in it to follow.
    if (lib.store.persistent)
      lib.sync = openSync(
        dbName,
        (docId) =>
          void lib
            .exclusive(() => lib.catalog.follow(docId))
            .then(
              () => opts.onExternalChange?.(),
              () => undefined,
            ),
      );
    try {
      await lib.exclusive(() => lib.start());
    } catch (e) {
      lib.close();
      throw e;
    }
    // Documents kept while the embedding model could not run, or embedded by another model, are
    // embedded now if it runs; in the background (queued, so `idle()` waits for it): they are
    // already found by their words, and opening never waits on, or fails with, the model.
    void lib.catchUp().then(
      (n) => n > 0 && opts.onExternalChange?.(),
      () => undefined,
    );
    return lib;
  }

  /** Embeds what waits for the page's embedding model (pending or another model's); how many documents were. */
  private catchUp(): Promise<number> {
    return this.exclusive(async () => (await this.embedPendingNow()) + (await reembedStale(this.catalog, this.opts)));
  }

  /**
   * Embeds the documents kept without vectors (added while the embedding model could not run),
   * without the user adding them again. Those the model still cannot embed
   * stay as they are, found by words. Returns how many were embedded.
   */
  async embedPending(): Promise<number> {
    return this.exclusive(() => this.embedPendingNow());
  }

  private async embedPendingNow(): Promise<number> {
    let done = 0;
    for (const d of await this.catalog.pending()) {
      const passages = await this.store.passagesOf(d.id);
      const embedded = await embedDocument(this.opts.embedder, passages);
      if (embedded.passages.length === 0) continue;
      const { name, title, format, text, ocr, layout } = d;
      await this.catalog.put(
        {
          id: d.id,
          parsed: { name, title, format, text, ...(ocr ? { ocr } : {}), ...(layout ? { layout } : {}) },
          passages: embedded.passages,
        },
        embedded.vectors,
        d.origin,
        d.bytes !== undefined ? { bytes: d.bytes } : {},
      );
      done++;
    }
    return done;
  }

  private async start(): Promise<void> {
    await this.opts.index.clear();
    this.catalog.fits = await vectorsFit(this.store, this.opts.embedderId);
    // A library in memory saves no index: nothing of it outlives the page.
    const name = this.store.persistent ? (this.opts.dbName ?? DEFAULT_DB_NAME) : null;
    // Stamped with the weights, not where they came from: the same model from the hub or a pack keeps the saved index.
    await this.catalog.loadVectors({ name, stamp: bareModel(this.opts.embedderId ?? ''), warnings: this.warnings });
    await openWordIndex(this.store, this.opts.index, this.catalog.passageIdList());
    if (this.opts.seed ?? true) await seedLibrary(this.catalog, this.opts, this.warnings);
  }

  /** Mutations run one at a time, so the store and the index never disagree. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    // Whatever changed, the word index is saved before the next mutation starts (not before this one's caller hears back).
    this.queue = run.catch(() => undefined).then(() => saveWordIndex(this.store, this.opts.index, this.warnings));
    return run;
  }

  /** Resolves once every mutation so far, and the saving of the word index after it, is done. */
  async idle(): Promise<void> {
    await this.queue;
  }

  /** `origin: 'sample'` marks the site's sample documents, which the page lists apart and clears at once. */
  async addFiles(
    files: FileLike[],
    opts: { signal?: AbortSignal; origin?: 'user' | 'sample' } = {},
  ): Promise<AddResult> {
    return this.exclusive(() =>
      ingestBatch(this.catalog, this.opts, files, {
        origin: opts.origin ?? 'user',
        ...(opts.signal ? { signal: opts.signal } : {}),
      }),
    );
  }

  async addText(title: string, text: string, opts: { signal?: AbortSignal } = {}): Promise<AddResult> {
    const name = title.trim() || 'Pasted text';
    const bytes = new TextEncoder().encode(text);
    const batch = { origin: 'user' as const, title: name, ...(opts.signal ? { signal: opts.signal } : {}) };
    return this.exclusive(() => ingestBatch(this.catalog, this.opts, [{ name, type: 'text/plain', bytes }], batch));
  }

  async remove(docId: string): Promise<boolean> {
    return this.exclusive(() => this.catalog.remove(docId, { announce: true }));
  }

  /**
   * Documents without their text, oldest first, each with its passage count. One whose vectors
   * another embedding model made is listed as waiting for its vectors: it is found by words only.
   */
  async list(): Promise<LibraryDocument[]> {
    return (await this.store.listDocuments()).map(({ text: _text, ...doc }) =>
      doc.pendingEmbedding || this.catalog.fits(doc) ? doc : { ...doc, pendingEmbedding: true as const },
    );
  }

  async document(docId: string): Promise<{ doc: StoredDocument; passages: Passage[] } | undefined> {
    const doc = await this.store.getDocument(docId);
    return doc && { doc, passages: await this.store.passagesOf(docId) };
  }

  /** A document with its passages and the original file kept with it, for the source viewer; undefined when it is not in the library. */
  async source(
    docId: string,
  ): Promise<{ doc: StoredDocument; passages: Passage[]; original?: StoredOriginal } | undefined> {
    const doc = await this.store.getDocument(docId);
    if (!doc) return undefined;
    const [passages, original] = await Promise.all([this.store.passagesOf(docId), this.store.getOriginal(docId)]);
    return { doc, passages, ...(original ? { original } : {}) };
  }

  async size(): Promise<number> {
    return this.opts.index.size();
  }

  /** Which vector index serves retrieval ('flat', 'voy' or 'compact'). */
  async indexKind(): Promise<IndexKind> {
    return this.opts.index.kind();
  }

  /** Which vector index serves and why, for the status panel. */
  async indexStatus(): Promise<VectorStatus> {
    return this.opts.index.vectorStatus();
  }

  /** Closes the database and stops the index worker; the object is unusable afterwards. */
  close(): void {
    this.sync?.close();
    this.sync = null;
    this.store.close();
    this.opts.index.terminate?.();
    this.opts.onClose?.();
  }
}
