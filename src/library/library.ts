// The document library the UI talks to: add, remove and list documents, and
// retrieve passages for a question. IndexedDB holds the truth; the vector index
// (in its worker) is rebuilt from it at start-up.
import type { ChunkOptions } from '../core/chunk';
import type { Embedder, Passage, Retriever, ScoredPassage } from '../core/ports';
import { normalise, type IndexKind } from '../core/vector-index';
import { DEFAULT_RETRIEVAL, hybridRetrieve, type RelevanceScorer, type RetrievalSettings } from '../core/hybrid';
import { embedDocument, embeddingText, embedPassages, readAndPrepare, sizeOf, type FileLike, type PrepareOptions, type PrepareOutcome, type PreparedDocument } from './ingest';
import type { IndexHandle } from './index-host';
import type { OcrProgress } from './ocr/port';
import type { PdfLoader, RawFile } from './parse';
import { fetchPrebuiltVersion, loadPrebuilt, PREBUILT_DIR, sameModel, type PrebuiltLibrary } from './prebuilt';
import { DEFAULT_DB_NAME, LibraryStore, rowsOf, type StoredDocument } from './store';

export type LibraryDocument = Omit<StoredDocument, 'text'>;

export interface LibraryProgress {
  /** File (or title) being processed. */
  name: string;
  /** 0-based position in the batch, and the batch size. */
  fileIndex: number;
  fileCount: number;
  stage: 'reading' | 'recognising' | 'embedding' | 'saving' | 'added' | 'refused';
  passagesDone?: number;
  passagesTotal?: number;
  /** While recognising a scan: pages recognised so far and pages to recognise in this file, and seconds left at the rate so far. */
  pagesDone?: number;
  pagesTotal?: number;
  secondsLeft?: number;
  /** The reason, when refused. */
  message?: string;
  /** The document just added (stage 'added' of a user batch), so a list can follow without re-reading the library. */
  doc?: LibraryDocument;
  /** The whole batch: files finished (added or refused) and bytes read so far, out of the total. */
  filesDone?: number;
  bytesDone?: number;
  bytesTotal?: number;
}

export interface AddResult {
  added: LibraryDocument[];
  refused: Array<{ name: string; reason: string }>;
  /** Added documents that lost something on the way (a passage that could not be embedded, a PDF page that threw), in plain words. */
  notes: Array<{ name: string; note: string }>;
  /** The batch was stopped; documents before the stop are in, the one in progress is not. */
  aborted: boolean;
}

export interface LibraryOptions {
  embedder: Embedder;
  /** Names the embedding model; stored vectors from another model are re-embedded at start-up. */
  embedderId?: string;
  index: IndexHandle;
  dbName?: string;
  chunk?: ChunkOptions;
  pdf?: PdfLoader;
  maxFileBytes?: number;
  /** Base URL of the site, for the shipped sample (`sample/`) and pre-built index (`index/`). */
  baseUrl?: string;
  /** Load the pre-built index or the sample corpus into an empty library on first visit (default true). */
  seed?: boolean;
  fetch?: typeof fetch;
  onProgress?: (p: LibraryProgress) => void;
  /**
   * Reads, parses and chunks a file (in the library worker in the browser);
   * defaults to doing it on the calling thread.
   */
  prepare?: (file: FileLike, opts: PrepareOptions, signal?: AbortSignal, onOcr?: (p: OcrProgress) => void) => Promise<PrepareOutcome>;
  /** Sizes of the files in bytes, without reading them (off the main thread in the browser). */
  measure?: (files: FileLike[]) => Promise<number[]>;
  /** Called by close(), to stop helpers such as the library worker. */
  onClose?: () => void;
  /** Another tab (or window) added or removed a document; this library's index already follows. */
  onExternalChange?: () => void;
  /** The cross-encoder, for re-ranking retrieved candidates (see core/hybrid.ts). */
  rerank?: RelevanceScorer;
}

export type { FileLike } from './ingest';

/** The one place that words a full-storage failure (issue 12 may refine it). */
export function storageFullMessage(): string {
  return "the browser's storage for this site is full (remove documents or free disk space, then add it again)";
}

function isQuotaError(e: unknown): boolean {
  return typeof e === 'object' && e !== null && 'name' in e && (e as { name: unknown }).name === 'QuotaExceededError';
}

const LEXICAL_UNSAVED = 'The word index could not be saved (it is rebuilt next time)';
const SEEDED = 'seeded';
const PREBUILT_AT = 'prebuiltCreatedAt';
const EMBEDDER = 'embedder';

export class Library {
  /** The core's Retriever port over this library. */
  readonly retriever: Retriever;
  /** Problems at start-up that did not stop the library from opening, for the UI to show. */
  readonly warnings: string[] = [];
  private passageIds = new Map<string, string[]>();
  private queue: Promise<unknown> = Promise.resolve();
  /** Tells other tabs on the same database which document changed, so their indexes follow. */
  private channel: BroadcastChannel | null = null;

  private constructor(
    private readonly store: LibraryStore,
    private readonly opts: LibraryOptions,
  ) {
    this.retriever = this.retrieverWith(DEFAULT_RETRIEVAL);
  }

  /** A Retriever searching words, meaning or both, with or without the cross-encoder's re-rank. */
  retrieverWith(settings: RetrievalSettings): Retriever {
    return { retrieve: (q, k, signal) => this.retrieve(q, k, signal, settings) };
  }

  /** Opens the library, rebuilds the index from IndexedDB and seeds a first visit. */
  static async open(opts: LibraryOptions): Promise<Library> {
    const dbName = opts.dbName ?? DEFAULT_DB_NAME;
    const lib = new Library(await LibraryStore.open(dbName), opts);
    if (typeof BroadcastChannel === 'function') {
      lib.channel = new BroadcastChannel(`selfrag-library:${dbName}`);
      lib.channel.onmessage = (e: MessageEvent<unknown>) => {
        const docId = (e.data as { docId?: unknown } | null)?.docId;
        if (typeof docId === 'string') void lib.exclusive(() => lib.follow(docId)).then(() => opts.onExternalChange?.(), () => undefined);
      };
    }
    try {
      await lib.exclusive(() => lib.start());
    } catch (e) {
      lib.close();
      throw e;
    }
    return lib;
  }

  private async start(): Promise<void> {
    await this.opts.index.clear();
    const stored = await this.store.getMeta<string>(EMBEDDER);
    const id = this.opts.embedderId;
    if (id && stored && !sameModel(stored, id)) await this.reembedAll();
    if (id) await this.store.setMeta(EMBEDDER, id);
    for (const v of await this.store.allVectors()) {
      this.passageIds.set(v.docId, v.ids);
      await this.opts.index.add(v.ids, rowsOf(v));
    }
    await this.openLexical();
    if (!(this.opts.seed ?? true)) return;
    if (!(await this.store.getMeta<boolean>(SEEDED))) {
      try {
        if ((await this.store.listDocuments()).length === 0) await this.seed();
        // Remembered, so a user who removes the sample does not get it back on reload.
        await this.store.setMeta(SEEDED, true);
      } catch (e) {
        // An empty library still works; the next visit tries again.
        this.warnings.push(`Could not load the starter library: ${e instanceof Error ? e.message : String(e)}`);
      }
    } else {
      await this.updatePrebuilt().catch((e: unknown) => {
        this.warnings.push(`Could not update the site's library: ${e instanceof Error ? e.message : String(e)}`);
      });
    }
  }

  /** Mutations run one at a time, so the store and the index never disagree. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    // Whatever changed, the lexical index is persisted before the next mutation starts (not before this one's caller hears back).
    this.queue = run.catch(() => undefined).then(() => this.saveLexical());
    return run;
  }

  /** Resolves once every mutation so far, and the saving of the word index after it, is done. */
  async idle(): Promise<void> {
    await this.queue;
  }

  async addFiles(files: FileLike[], opts: { signal?: AbortSignal } = {}): Promise<AddResult> {
    return this.exclusive(() => this.ingestBatch(files, 'user', opts.signal));
  }

  async addText(title: string, text: string, opts: { signal?: AbortSignal } = {}): Promise<AddResult> {
    const name = title.trim() || 'Pasted text';
    const bytes = new TextEncoder().encode(text);
    return this.exclusive(() => this.ingestBatch([{ name, type: 'text/plain', bytes }], 'user', opts.signal, name));
  }

  async remove(docId: string): Promise<boolean> {
    return this.exclusive(async () => {
      const removed = await this.store.removeDocument(docId);
      await this.opts.index.remove(this.passageIds.get(docId) ?? []);
      this.passageIds.delete(docId);
      if (removed) this.channel?.postMessage({ docId });
      return removed;
    });
  }

  /** Documents without their text, oldest first, each with its passage count. */
  async list(): Promise<LibraryDocument[]> {
    return (await this.store.listDocuments()).map(({ text: _text, ...doc }) => doc);
  }

  async document(docId: string): Promise<{ doc: StoredDocument; passages: Passage[] } | undefined> {
    const doc = await this.store.getDocument(docId);
    return doc && { doc, passages: await this.store.passagesOf(docId) };
  }

  async size(): Promise<number> {
    return this.opts.index.size();
  }

  /** Which vector index serves retrieval ('flat' or 'voy'), for the status panel. */
  async indexKind(): Promise<IndexKind> {
    return this.opts.index.kind();
  }

  /** Closes the database and stops the index worker; the object is unusable afterwards. */
  close(): void {
    this.channel?.close();
    this.channel = null;
    this.store.close();
    this.opts.index.terminate?.();
    this.opts.onClose?.();
  }

  private retrieve(query: string, k: number, signal: AbortSignal | undefined, settings: RetrievalSettings): Promise<ScoredPassage[]> {
    const embedder = this.opts.embedder;
    return hybridRetrieve(
      {
        embedQuery: async (q, sig) => {
          const [vector] = await (embedder.embedQueries ?? embedder.embed).call(embedder, [q], sig);
          if (!vector) throw new Error('the embedder returned no vector for the question');
          return normalise(vector, vector.length);
        },
        search: (req) => this.opts.index.hybrid(req),
        passages: (ids) => this.store.getPassages(ids),
        ...(this.opts.rerank ? { rerank: this.opts.rerank } : {}),
      },
      query,
      k,
      settings,
      signal,
    );
  }

  /**
   * Loads the persisted lexical index and brings it in line with the stored passages: only
   * passages it lacks are tokenised (none, normally), and passages gone from the library are
   * dropped. A snapshot from another tokenizer version is rebuilt once.
   */
  private async openLexical(): Promise<void> {
    const index = this.opts.index;
    const snap = await this.store.getLexical();
    if (snap) await index.loadLexical(snap).catch(() => false);
    const ids = [...this.passageIds.values()].flat();
    const missing = await index.reconcileLexical(ids);
    for (let i = 0; i < missing.length; i += 512) {
      const batch = (await this.store.getPassages(missing.slice(i, i + 512))).filter((p): p is Passage => !!p);
      await index.addText(batch.map((p) => ({ id: p.id, text: embeddingText(p) })));
    }
  }

  private async saveLexical(): Promise<void> {
    try {
      const snap = await this.opts.index.lexicalSnapshot();
      if (snap) await this.store.putLexical(snap);
    } catch (e) {
      // The index in memory still serves; the next start-up reconciles what was not saved.
      if (!this.warnings.some((w) => w.startsWith(LEXICAL_UNSAVED))) this.warnings.push(`${LEXICAL_UNSAVED}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  private async ingestBatch(files: FileLike[], origin: StoredDocument['origin'], signal?: AbortSignal, title?: string): Promise<AddResult> {
    const result: AddResult = { added: [], refused: [], notes: [], aborted: false };
    const sizes = this.opts.measure ? await this.opts.measure(files) : files.map((f) => sizeOf(f) ?? 0);
    const bytesTotal = sizes.reduce((a, b) => a + b, 0);
    let bytesDone = 0;
    const report = (p: Omit<LibraryProgress, 'fileCount' | 'filesDone' | 'bytesDone' | 'bytesTotal'>, partial = 0) =>
      this.opts.onProgress?.({ ...p, fileCount: files.length, filesDone: result.added.length + result.refused.length, bytesDone: bytesDone + partial, bytesTotal });
    const prepare = this.opts.prepare ?? ((f: FileLike, o: PrepareOptions) => readAndPrepare(f, o));
    const prepareOpts: PrepareOptions = {
      ...(this.opts.chunk ? { chunk: this.opts.chunk } : {}),
      ...(this.opts.pdf ? { pdf: this.opts.pdf } : {}),
      ...(this.opts.maxFileBytes ? { maxBytes: this.opts.maxFileBytes } : {}),
      ...(title ? { title } : {}),
    };
    for (const [fileIndex, file] of files.entries()) {
      if (signal?.aborted) {
        result.aborted = true;
        break;
      }
      const { name } = file;
      const size = sizes[fileIndex] ?? 0;
      const refuse = (reason: string) => {
        result.refused.push({ name, reason });
        bytesDone += size;
        report({ name, fileIndex, stage: 'refused', message: reason });
      };
      try {
        report({ name, fileIndex, stage: 'reading' });
        const outcome = await abortable(prepare(file, prepareOpts, signal, this.ocrProgress((p) => report({ name, fileIndex, stage: 'recognising', ...p }))), signal);
        if (!outcome.ok) {
          refuse(outcome.reason);
          continue;
        }
        // Content-addressed: the same text under another name replaces its document, so say which.
        const same = await this.store.getDocument(outcome.doc.id);
        const doc = await this.ingest(
          outcome.doc,
          origin,
          signal,
          (done, total) => report({ name, fileIndex, stage: 'embedding', passagesDone: done, passagesTotal: total }, total ? (size * done) / total : 0),
          undefined,
          outcome.bytes,
        );
        if (!doc) {
          refuse(`none of its ${outcome.doc.passages.length} passages could be embedded (${this.lastDropReason ?? 'unknown reason'}); check that the embedding model loaded`);
          continue;
        }
        if (same && same.name !== name) result.notes.push({ name, note: `it has the same text as ${same.name}, so the library keeps it once` });
        for (const note of outcome.doc.parsed.notes ?? []) result.notes.push({ name, note });
        if (this.lastDropped > 0)
          result.notes.push({
            name,
            note: `${this.lastDropped} of ${outcome.doc.passages.length} passages could not be embedded and were left out (${this.lastDropReason}); the rest of the document was added`,
          });
        result.added.push(doc);
        bytesDone += size;
        report({ name, fileIndex, stage: 'added', passagesDone: doc.passageCount, passagesTotal: doc.passageCount, doc });
      } catch (e) {
        if (signal?.aborted) {
          result.aborted = true;
          break;
        }
        refuse(isQuotaError(e) ? storageFullMessage() : `it could not be added (${e instanceof Error ? e.message : String(e)})`);
      }
    }
    return result;
  }

  private lastDropped = 0;
  private lastDropReason: string | undefined;

  /**
   * Embeds (unless vectors are given), dropping passages that cannot be embedded,
   * then writes atomically, then indexes. Undefined when no passage could be embedded.
   */
  private async ingest(
    { id, parsed, passages: all }: PreparedDocument,
    origin: StoredDocument['origin'],
    signal?: AbortSignal,
    onBatch?: (done: number, total: number) => void,
    given?: Float32Array[],
    bytes?: number,
  ): Promise<LibraryDocument | undefined> {
    let passages = all;
    let vectors: Float32Array[];
    if (given) vectors = given;
    else {
      const embedded = await embedDocument(this.opts.embedder, all, { ...(signal ? { signal } : {}), ...(onBatch ? { onBatch } : {}) });
      ({ passages, vectors } = embedded);
      this.lastDropped = embedded.dropped;
      this.lastDropReason = embedded.reason;
      if (passages.length === 0 && all.length > 0) return undefined;
    }
    // Checked before anything is written, so a bad vector cannot leave a half-indexed document.
    vectors.forEach((v) => normalise(v, v.length));
    signal?.throwIfAborted();
    const existing = await this.store.getDocument(id);
    const doc: StoredDocument = {
      id,
      title: parsed.title,
      name: parsed.name,
      format: parsed.format,
      text: parsed.text,
      passageCount: passages.length,
      ...(parsed.ocr ? { ocr: parsed.ocr } : {}),
      ...(bytes !== undefined ? { bytes } : {}),
      addedAt: existing?.addedAt ?? Date.now(),
      origin: existing?.origin ?? origin,
    };
    await this.store.putDocument(doc, passages, vectors);
    await this.opts.index.remove(this.passageIds.get(id) ?? []);
    const ids = passages.map((p) => p.id);
    await this.opts.index.add(ids, vectors);
    await this.opts.index.addText(passages.map((p) => ({ id: p.id, text: embeddingText(p) })));
    this.passageIds.set(id, ids);
    this.channel?.postMessage({ docId: id });
    const { text: _text, ...listed } = doc;
    return listed;
  }

  /** Turns the recogniser's per-page events into pages done and time left, at the rate since this file's first page. */
  private ocrProgress(emit: (p: { pagesDone: number; pagesTotal: number; secondsLeft?: number }) => void): (p: OcrProgress) => void {
    let started: number | undefined;
    return ({ done, total }) => {
      const now = Date.now();
      if (done === 0) started = now;
      const left = done > 0 && started !== undefined ? ((now - started) / done) * (total - done) : undefined;
      emit({ pagesDone: done, pagesTotal: total, ...(left !== undefined ? { secondsLeft: Math.round(left / 1000) } : {}) });
    };
  }

  /** Brings one document's vectors in the index in line with IndexedDB, after another tab changed it. */
  private async follow(docId: string): Promise<void> {
    const v = await this.store.getVectors(docId);
    await this.opts.index.remove(this.passageIds.get(docId) ?? []);
    this.passageIds.delete(docId);
    if (v) {
      await this.opts.index.add(v.ids, rowsOf(v));
      const passages = (await this.store.getPassages(v.ids)).filter((p): p is Passage => !!p);
      await this.opts.index.addText(passages.map((p) => ({ id: p.id, text: embeddingText(p) })));
      this.passageIds.set(docId, v.ids);
    }
  }

  private async reembedAll(): Promise<void> {
    const docs = await this.store.listDocuments();
    for (const [fileIndex, d] of docs.entries()) {
      const passages = await this.store.passagesOf(d.id);
      this.opts.onProgress?.({ name: d.name, fileIndex, fileCount: docs.length, stage: 'embedding', passagesDone: 0, passagesTotal: passages.length });
      const vectors = await embedPassages(this.opts.embedder, passages);
      await this.store.putDocument(d, passages, vectors);
      this.opts.onProgress?.({ name: d.name, fileIndex, fileCount: docs.length, stage: 'added', passagesDone: passages.length, passagesTotal: passages.length });
    }
  }

  private async seed(): Promise<void> {
    const base = this.opts.baseUrl;
    if (!base) return;
    const fetchFn = this.opts.fetch ?? globalThis.fetch.bind(globalThis);
    const prebuilt = await loadPrebuilt(new URL(PREBUILT_DIR, base).href, fetchFn);
    if (prebuilt) {
      await this.importPrebuilt(prebuilt);
      await this.store.setMeta(PREBUILT_AT, prebuilt.createdAt);
      return;
    }
    await this.loadSample(new URL('sample/', base).href, fetchFn);
  }

  /**
   * A library first filled from the site's pre-built index follows that index when
   * the site rebuilds it: its documents are replaced, the user's own are kept.
   */
  private async updatePrebuilt(): Promise<void> {
    const base = this.opts.baseUrl;
    const had = await this.store.getMeta<string>(PREBUILT_AT);
    if (!base || had === undefined) return;
    const fetchFn = this.opts.fetch ?? globalThis.fetch.bind(globalThis);
    const dir = new URL(PREBUILT_DIR, base).href;
    const now = await fetchPrebuiltVersion(dir, fetchFn);
    if (now === null || now === had) return;
    const prebuilt = await loadPrebuilt(dir, fetchFn);
    if (!prebuilt) return;
    const keep = new Set(prebuilt.documents.map((d) => d.id));
    for (const d of await this.store.listDocuments()) {
      if (d.origin !== 'prebuilt' || keep.has(d.id)) continue;
      await this.store.removeDocument(d.id);
      await this.opts.index.remove(this.passageIds.get(d.id) ?? []);
      this.passageIds.delete(d.id);
    }
    await this.importPrebuilt(prebuilt);
    await this.store.setMeta(PREBUILT_AT, prebuilt.createdAt);
  }

  private async importPrebuilt(lib: PrebuiltLibrary): Promise<void> {
    // The site's word index, tokenised at build time: loaded whole into an empty index, so the
    // passages below are found already indexed and nothing is tokenised in the browser.
    if (lib.lexical && (await this.opts.index.lexicalSize()) === 0 && (await this.opts.index.loadLexical(lib.lexical))) {
      await this.store.putLexical(lib.lexical);
    }
    const reuse = !this.opts.embedderId || !lib.model || sameModel(lib.model, this.opts.embedderId);
    for (const [fileIndex, d] of lib.documents.entries()) {
      const passages = lib.passages.filter((p) => p.docId === d.id);
      const vectors = reuse ? passages.map((p) => lib.vectors.get(p.id)).filter((v): v is Float32Array => !!v) : undefined;
      this.opts.onProgress?.({ name: d.name, fileIndex, fileCount: lib.documents.length, stage: reuse ? 'saving' : 'embedding' });
      const doc = await this.ingest({ id: d.id, parsed: d, passages }, 'prebuilt', undefined, undefined, vectors?.length === passages.length ? vectors : undefined);
      const count = doc?.passageCount ?? 0;
      this.opts.onProgress?.({ name: d.name, fileIndex, fileCount: lib.documents.length, stage: 'added', passagesDone: count, passagesTotal: count });
    }
  }

  private async loadSample(dir: string, fetchFn: typeof fetch): Promise<void> {
    const res = await fetchFn(new URL('manifest.json', dir).href).catch(() => null);
    if (!res?.ok) return;
    const manifest = (await res.json()) as { documents?: Array<{ file: string; type?: string }> };
    const files: RawFile[] = [];
    for (const { file, type } of manifest.documents ?? []) {
      const r = await fetchFn(new URL(file, dir).href);
      if (r.ok) files.push({ name: file, bytes: new Uint8Array(await r.arrayBuffer()), ...(type ? { type } : {}) });
    }
    await this.ingestBatch(files, 'sample');
  }
}

/** Rejects as soon as the signal aborts, without waiting for work that cannot be interrupted (a parse in the worker). */
function abortable<T>(work: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return work;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
