// E2E-only page (built with --mode e2e): drives the real library facade, its
// IndexedDB store, the index worker and pdfjs, with the hashed bag-of-words
// test embedder (the same one the Node indexer uses in the browser test).
import type { IndexChoice } from '../../../src/vector/vector-index';
import { openBrowserLibrary } from '../../../src/library/browser';
import type { Library, LibraryDocument, LibraryProgress } from '../../../src/library/library';
import { HashEmbedder } from '../../doubles/hash-embedder';
import { tinyPdf } from '../../doubles/tiny-pdf';

// This page sits at test/browser/pages/ of the build; the app (and its sample/) is three levels up.
const APP_BASE = new URL('../../../', document.baseURI).href;

let lib: Library | null = null;
let progressHook: ((p: LibraryProgress) => void) | null = null;
const embedder = new HashEmbedder(256);

const api = {
  async open(opts: { dbName: string; seed?: boolean; site?: string; indexKind?: IndexChoice; embedderId?: string }) {
    lib?.close();
    lib = await openBrowserLibrary({
      embedder,
      dbName: opts.dbName,
      seed: opts.seed ?? false,
      baseUrl: opts.site ? new URL(opts.site, document.baseURI).href : APP_BASE,
      onProgress: (p) => progressHook?.(p),
      ...(opts.indexKind ? { indexKind: opts.indexKind } : {}),
      ...(opts.embedderId ? { embedderId: opts.embedderId } : {}),
    });
    return { warnings: lib.warnings, size: await lib.size(), kind: await lib.indexKind() };
  },
  async addFile(name: string, content: string, type = '') {
    const r = await need().addFiles([new File([content], name, { type })]);
    return { added: r.added.map(short), refused: r.refused };
  },
  async addPdf(name: string, pages: string[][]) {
    const bytes = tinyPdf(pages);
    const r = await need().addFiles([new File([bytes.buffer as ArrayBuffer], name, { type: 'application/pdf' })]);
    return { added: r.added.map(short), refused: r.refused };
  },
  /** Adds files given as base64 bytes (scans, images), as a user dropping them would. */
  async addBytes(files: { name: string; base64: string; type?: string }[]) {
    const r = await need().addFiles(
      files.map(
        (f) => new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], f.name, { type: f.type ?? '' }),
      ),
    );
    return { added: r.added.map(short), refused: r.refused, notes: r.notes };
  },
  addText: async (title: string, text: string) => (await need().addText(title, text)).added.map(short),
  list: async () => (await need().list()).map(short),
  remove: (id: string) => need().remove(id),
  size: () => need().size(),
  indexStatus: () => need().indexStatus(),
  passages: async (id: string) => (await need().document(id))?.passages.map((p) => p.text) ?? [],
  retrieve: async (q: string, k: number) =>
    (await need().retriever.retrieve(q, k)).map((p) => ({ id: p.id, title: p.title, text: p.text, score: p.score })),
  embeddedTexts: () => embedder.texts.length,
  retrieveWords: async (q: string, k: number) =>
    (await need().retrieverWith({ search: 'words', rerank: false }).retrieve(q, k)).map((p) => ({
      id: p.id,
      title: p.title,
    })),
  /** The word index's record as IndexedDB holds it, once the library has saved it. */
  async savedWordIndex(dbName: string) {
    await need().idle();
    const db = await new Promise<IDBDatabase>((ok, fail) => {
      const r = indexedDB.open(dbName);
      r.onsuccess = () => ok(r.result);
      r.onerror = () => fail(r.error);
    });
    const v = await new Promise<{ format?: unknown; blob?: unknown } | undefined>((ok, fail) => {
      const r = db.transaction('meta').objectStore('meta').get('lexicalIndex');
      r.onsuccess = () => ok(r.result as { format?: unknown; blob?: unknown } | undefined);
      r.onerror = () => fail(r.error);
    });
    db.close();
    return {
      format: v?.format,
      blob: v?.blob instanceof Blob,
      size: v?.blob instanceof Blob ? v.blob.size : 0,
      strings: Object.values(v ?? {}).filter((x) => typeof x === 'string' && x.length > 64).length,
    };
  },
  /** Problems the library noted since it opened (the site corpus adds its own while answering). */
  warnings: async () => need().warnings.slice(),
  /** Adds a batch and stops it while document `stopAt` (0-based) is being embedded, like a user pressing Stop. */
  async addStopping(files: { name: string; content: string }[], stopAt: number) {
    const controller = new AbortController();
    progressHook = (p) => {
      if (p.stage === 'embedding' && p.fileIndex === stopAt) controller.abort();
    };
    try {
      const r = await need().addFiles(
        files.map((f) => new File([f.content], f.name)),
        { signal: controller.signal },
      );
      return { added: r.added.map(short), refused: r.refused, aborted: r.aborted, notEmbedded: r.notEmbedded };
    } finally {
      progressHook = null;
    }
  },
};

function need(): Library {
  if (!lib) throw new Error('call open() first');
  return lib;
}
function short(d: LibraryDocument) {
  return { id: d.id, title: d.title, passages: d.passageCount, origin: d.origin, format: d.format };
}

export type LibraryPageApi = typeof api;
(window as unknown as { libraryTest: LibraryPageApi }).libraryTest = api;
document.getElementById('status')!.textContent = 'ready';
