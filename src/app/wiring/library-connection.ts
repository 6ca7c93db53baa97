// Adapts the library facade (src/library) to what the page shows: a document
// list, progress bars per ingestion, and messages for refused files. The
// library opens after first paint; until then the panel says so.
import type { Embedder, Retriever } from '../../core/ports';
import type { RelevanceScorer, RetrievalSettings } from '../../core/hybrid';
import type { IndexChoice } from '../../vector/vector-index';
import type { NamedBlob } from '../../library/ingest';
import type { AddResult, Library, LibraryProgress } from '../../library/library';
import {
  docRow,
  emptyLibraryView,
  type BatchReportView,
  type LibraryActions,
  type LibraryJobView,
  type LibraryViewState,
} from '../view/library-panel';
import { createStore } from '../state/store';
import type { StatusStore } from '../state/worker-status';
import { quotaMessage } from '../persist/storage-quota';
import { reportShelf, type ReportShelf } from '../persist/batch-reports';
import type { LibraryStorage } from '../../library/store';
import { lazy } from './lazy';

export type LibraryConnection = Library;

let messageId = 0;

export function connectLibrary(opts: {
  status: StatusStore;
  baseURI: string;
  embedder: () => Promise<Embedder>;
  embedderId?: () => Promise<string | undefined>;
  /** The vector index to open the library with (read once, when it opens). */
  indexKind?: () => IndexChoice;
  /** The cross-encoder that re-ranks retrieved candidates (the evaluator's cached scorer). */
  rerank?: RelevanceScorer;
  /** Where the library keeps its documents (IndexedDB, shared IndexedDB, or memory). */
  openStore?: (dbName: string) => Promise<LibraryStorage>;
  /** Whether to keep each added file for the source viewer (the user's setting). */
  keepOriginals?: () => boolean;
  /** Where batch reports are kept until dismissed (localStorage by default). */
  reports?: ReportShelf;
}) {
  const shelf = opts.reports ?? reportShelf();
  const kept = shelf.load();
  const store = createStore<LibraryViewState>({ ...emptyLibraryView, ...(kept.length ? { reports: kept } : {}) });
  const setReports = (reports: BatchReportView[]) => {
    set({ reports });
    shelf.save(reports);
  };
  const set = (patch: Partial<LibraryViewState>) => store.set((v) => ({ ...v, ...patch }));
  const say = (kind: 'error' | 'info', text: string) =>
    set({ messages: [...store.get().messages.slice(-3), { id: ++messageId, kind, text }] });

  const jobStarted = new Map<string, number>();
  // The running user batch: one progress bar in bytes and files for all of it.
  // Batches run one after another in the library, so the first one here is the one running.
  const batches: { startedAt: number; controller: AbortController }[] = [];
  // Progress arrives per passage batch and per file; the page repaints it at most four times a second.
  let shownJob: LibraryJobView | null = null;
  let jobTimer: ReturnType<typeof setTimeout> | null = null;
  const showJob = (job: LibraryJobView) => {
    shownJob = job;
    if (jobTimer) return;
    jobTimer = setTimeout(() => {
      jobTimer = null;
      if (shownJob && batches.length > 0) set({ jobs: [shownJob] });
      shownJob = null;
    }, 250);
  };
  // A scan's pages are counted while they are recognised: the slow part of such a file, timed on its own.
  let recognisingSince = 0;
  const onProgress = (p: LibraryProgress) => {
    const batch = batches[0];
    if (batch && p.bytesTotal !== undefined) {
      const done = p.filesDone ?? 0;
      if (p.stage === 'recognising' && p.pagesTotal) {
        if (p.pagesDone === 0 || !recognisingSince) recognisingSince = Date.now();
        showJob({
          id: 'batch',
          label: `Adding ${p.fileCount} file${p.fileCount === 1 ? '' : 's'}: ${done} done, now recognising the text of ${p.name}`,
          loaded: p.pagesDone ?? 0,
          total: p.pagesTotal,
          unit: 'pages',
          startedAt: recognisingSince,
        });
        return;
      }
      recognisingSince = 0;
      showJob({
        id: 'batch',
        label: `Adding ${p.fileCount} file${p.fileCount === 1 ? '' : 's'}: ${done} done${done < p.fileCount ? `, now ${p.name}` : ''}`,
        loaded: p.bytesDone ?? 0,
        total: p.bytesTotal || null,
        unit: 'bytes',
        startedAt: batch.startedAt,
      });
      // The list follows the batch from the progress events: re-reading the library (every
      // document's text) per file would cost the page's main thread more than the files do.
      if (p.stage === 'added' && p.doc) {
        const d = p.doc;
        const row = docRow(d);
        // The same text added again replaces its document (content-addressed), so it is listed once.
        set({ docs: [...store.get().docs.filter((x) => x.id !== d.id), row] });
      }
      return;
    }
    const id = `${p.fileIndex}:${p.name}`;
    if (!jobStarted.has(id)) jobStarted.set(id, Date.now());
    if (p.stage === 'added' || p.stage === 'refused') {
      jobStarted.delete(id);
      set({ jobs: store.get().jobs.filter((j) => j.id !== id) });
      if (p.stage === 'refused')
        say(
          'error',
          quotaMessage(p.message, `the document ${p.name}`) ??
            `${p.name} was not added: ${p.message ?? 'it could not be read.'}`,
        );
      void refresh();
      return;
    }
    const job: LibraryJobView = {
      id,
      label: `${p.stage === 'embedding' ? 'Indexing' : p.stage === 'saving' ? 'Saving' : 'Reading'} ${p.name} (${p.fileIndex + 1} of ${p.fileCount})`,
      loaded: p.passagesDone ?? 0,
      total: p.passagesTotal ?? null,
      unit: 'passages',
      startedAt: jobStarted.get(id)!,
    };
    const others = store.get().jobs.filter((j) => j.id !== id);
    set({ jobs: [...others, job] });
  };

  let reportId = Math.max(0, ...kept.map((r) => r.id));
  const report = (r: AddResult, files: number, skipped = 0) => {
    const tried = r.added.length + r.refused.length + r.already.length;
    const notEmbedded = new Map<string, string[]>();
    for (const d of r.notEmbedded) notEmbedded.set(d.reason, [...(notEmbedded.get(d.reason) ?? []), d.name]);
    const entry: BatchReportView = {
      id: ++reportId,
      added: r.added.length,
      ...(r.already.length ? { already: r.already.length } : {}),
      refused: r.refused,
      notes: r.notes,
      notEmbedded: [...notEmbedded].map(([reason, names]) => ({ reason, names })),
      skipped,
      aborted: r.aborted,
      notTried: Math.max(0, files - tried),
    };
    setReports([...(store.get().reports ?? []), entry]);
  };

  /** Runs one user batch with its own Stop; batches queue in the library one after another. */
  const runBatch = async (
    lib: Library,
    files: Array<File | NamedBlob>,
    skipped: number,
    title?: { title: string; text: string },
    origin: 'user' | 'sample' = 'user',
  ) => {
    const controller = new AbortController();
    const entry = { startedAt: Date.now(), controller };
    batches.push(entry);
    set({ busy: true });
    try {
      const r = title
        ? await lib.addText(title.title, title.text, { signal: controller.signal })
        : await lib.addFiles(files, { signal: controller.signal, origin });
      report(r, title ? 1 : files.length, skipped);
      // A batch may have taken the library past the size where 'auto' switches index.
      await describeIndex(lib);
      // The list followed the batch: it says how many documents wait for the embedding model.
      opts.status.update('library', { reason: libraryReason(store.get().docs.filter((d) => d.pending).length) });
    } finally {
      batches.splice(batches.indexOf(entry), 1);
      if (batches[0]) batches[0].startedAt = Date.now();
      set({ busy: batches.length > 0 });
    }
  };

  /** The vector index the library was opened with; null until it opens. */
  let openedWith: IndexChoice | null = null;
  const connection = lazy(async (): Promise<Library> => {
    opts.status.update('library', { state: 'loading' });
    openedWith = opts.indexKind?.() ?? null;
    try {
      const [{ openBrowserLibrary }, embedder] = await Promise.all([import('../../library/browser'), opts.embedder()]);
      const lib = await openBrowserLibrary({
        ...(openedWith ? { indexKind: openedWith } : {}),
        embedder,
        embedderId: await opts.embedderId?.(),
        ...(opts.rerank ? { rerank: opts.rerank } : {}),
        ...(opts.openStore ? { openStore: opts.openStore } : {}),
        ...(opts.keepOriginals ? { keepOriginals: opts.keepOriginals } : {}),
        baseUrl: opts.baseURI,
        onProgress,
        // Another tab added or removed a document: show the same list here.
        onExternalChange: () => void refresh().catch(() => undefined),
        // The site's corpus is searched from the first question on: the status says how much of it.
        onSiteCorpus: (about) => {
          corpusNote = siteCorpusNote(about);
          opts.status.update('library', { reason: libraryReason(store.get().docs.filter((d) => d.pending).length) });
        },
      });
      // Opening may have started the starter library; whatever it left unfinished is over now.
      jobStarted.clear();
      set({ jobs: [] });
      for (const w of lib.warnings) say('error', w);
      await describeIndex(lib);
      opts.status.update('library', { state: 'ready', device: 'cpu', reason: baseReason + corpusNote });
      return lib;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      opts.status.update('library', { state: 'error', error: `The library could not open: ${message}` });
      set({ ready: true });
      say('error', `The library could not open: ${message}`);
      throw e;
    }
  });

  let baseReason = '';
  /** Which vector index serves and why ('auto' may have switched since the last time). */
  async function describeIndex(lib: Library) {
    const index = await lib.indexStatus();
    baseReason = `Vectors: ${index.reason}. Words: a BM25 index. Both in their own worker${lib.persistent ? '' : '; kept in memory for this visit (the browser gives this page no storage)'}`;
    // The switch runs in the worker; the panel follows it to its end.
    if (index.switching)
      setTimeout(
        () =>
          void describeIndex(lib).then(
            () => opts.status.update('library', { reason: baseReason + corpusNote }),
            () => undefined,
          ),
        2000,
      );
  }
  let corpusNote = '';
  const libraryReason = (pending: number) =>
    (pending
      ? `${baseReason}. ${pending} document${pending === 1 ? ' is' : 's are'} not embedded yet: found by their words only until the embedding model loads`
      : baseReason) + corpusNote;
  async function refresh() {
    const lib = await connection();
    if (baseReason) await describeIndex(lib);
    const docs = await lib.list();
    const pending = docs.filter((d) => d.pendingEmbedding).length;
    if (baseReason) opts.status.update('library', { reason: libraryReason(pending) });
    set({
      ready: true,
      docs: docs.map(docRow),
    });
  }

  const guarded =
    <A extends unknown[]>(fn: (lib: Library, ...args: A) => Promise<void>, relist = true) =>
    async (...args: A): Promise<void> => {
      let failed = false;
      try {
        await fn(await connection(), ...args);
      } catch (e) {
        failed = true;
        say('error', quotaMessage(e, 'the document') ?? (e instanceof Error ? e.message : String(e)));
      } finally {
        set({ jobs: [] });
        if (relist || failed || !store.get().ready) await refresh().catch(() => undefined);
      }
    };

  const actions: LibraryActions = {
    dismiss: (messageId) => set({ messages: store.get().messages.filter((m) => m.id !== messageId) }),
    // The list already followed the batch document by document.
    addFiles: guarded(
      async (lib, files: Array<File | NamedBlob>, skipped?: number) => runBatch(lib, files, skipped ?? 0),
      false,
    ),
    addText: guarded(async (lib, title: string, text: string) => runBatch(lib, [], 0, { title, text })),
    stop: () => batches.forEach((b) => b.controller.abort(new DOMException('Stopped by the user', 'AbortError'))),
    dismissReport: (id) => setReports((store.get().reports ?? []).filter((r) => r.id !== id)),
    remove: guarded(async (lib, id: string) => {
      await lib.remove(id);
    }),
    // A read, not a change: no job, no relisting; a library that cannot open says so in its status.
    source: async (docId: string) => (await connection()).source(docId),
    loadSample: guarded(async (lib) => {
      const base = new URL('sample/', opts.baseURI);
      const res = await fetch(new URL('manifest.json', base));
      if (!res.ok) throw new Error('The sample documents are not part of this site.');
      const manifest = (await res.json()) as { documents?: { file: string; type?: string }[] };
      const files: File[] = [];
      for (const d of manifest.documents ?? []) {
        const r = await fetch(new URL(d.file, base));
        if (r.ok) files.push(new File([await r.arrayBuffer()], d.file, { type: d.type ?? 'text/plain' }));
      }
      await runBatch(lib, files, 0, undefined, 'sample');
    }),
    removeSamples: guarded(async (lib) => {
      for (const d of await lib.list()) if (d.origin === 'sample') await lib.remove(d.id);
    }),
  };

  return {
    view: {
      get: store.get,
      subscribe: store.subscribe,
      actions,
    },
    retriever: async (settings?: RetrievalSettings): Promise<Retriever> => {
      const lib = await connection();
      return settings ? lib.retrieverWith(settings) : lib.retriever;
    },
    connection,
    /** The vector index the library opened with (null before it opens: the settings' choice is what it will open with). */
    openedWith: () => openedWith,
    /** Embeds the documents kept without vectors (the embedding model loads now), then lists them anew. */
    async embedPending(): Promise<void> {
      const lib = await connection();
      await lib.embedPending();
      await refresh();
    },
    start() {
      void refresh().catch(() => undefined);
    },
  };
}

/** What the status adds once the site's sharded corpus is searched: it answers too, so its size is said. */
export function siteCorpusNote(about: { documents: number; passages: number }): string {
  const n = (x: number, one: string) => `${x.toLocaleString('en')} ${one}${x === 1 ? '' : 's'}`;
  return `. Also searched: this site's corpus, ${n(about.documents, 'document')} (${n(about.passages, 'passage')}), read in blocks as questions need them`;
}
