// The library connection: the effects around state/library.ts. It holds the panel's state from the
// first paint (batch reports kept until dismissed, across reloads), publishes the status panel's
// library line (`libraryLine`) as it changes, and hands the work itself (opening the library
// facade, progress, the panel's actions) to library-work.ts, which loads when the library opens.
import type { Embedder, Retriever } from '../../core/ports';
import type { PassageJudge, RelevanceScorer, RetrievalSettings } from '../../core/hybrid';
import type { IndexChoice } from '../../vector/vector-index';
import type { Library } from '../../library/library';
import type { LibraryActions } from '../view/library-panel';
import { createActionStore, type ActionStore } from '../state/action-store';
import { initialLibrary, libraryLine, libraryReducer, type LibraryAction, type LibraryState } from '../state/library';
import { followStatus, type StatusStore } from '../state/worker-status';
import { reportShelf, type ReportShelf } from '../persist/batch-reports';
import type { LibraryStorage } from '../../library/store';
import { lazy, type Lazy } from './lazy';

export { siteCorpusNote } from '../state/library';

export type LibraryConnection = Library;

export interface LibraryConnectionOptions {
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
}

/** What the connection's effects share. */
export interface LibraryRunner {
  opts: LibraryConnectionOptions;
  state: ActionStore<LibraryState, LibraryAction>;
  /** The user batches, oldest first: the library runs them one after another, so the first is the one running. */
  batches: { startedAt: number; controller: AbortController }[];
  repaint: ReturnType<typeof setTimeout> | null;
  /** The index's line is re-read after documents were added in a batch (at most once a second). */
  redescribe: ReturnType<typeof setTimeout> | null;
  connection: Lazy<Library>;
  /** The vector index the library was opened with; null until it opens. */
  openedWith: IndexChoice | null;
}

/** Keeps the batch reports on their shelf as they change (until dismissed, across reloads). */
function keepReports(r: LibraryRunner, shelf: ReportShelf): void {
  let reports = r.state.get().view.reports;
  r.state.subscribe(() => {
    if (r.state.get().view.reports === reports) return;
    reports = r.state.get().view.reports;
    shelf.save(reports ?? []);
  });
}

export function connectLibrary(opts: LibraryConnectionOptions) {
  const shelf = opts.reports ?? reportShelf();
  const state = createActionStore(libraryReducer, initialLibrary(shelf.load()));
  const work = lazy(() => import('./library-work'));
  const r: LibraryRunner = {
    opts,
    state,
    batches: [],
    repaint: null,
    redescribe: null,
    connection: lazy(async () => (await work()).open(r)),
    openedWith: null,
  };
  const refresh = async () => (await work()).refresh(r);
  keepReports(r, shelf);
  followStatus(opts.status, 'library', state, libraryLine);
  const actions: LibraryActions = {
    dismiss: (id) => state.dispatch({ type: 'messageDismissed', id }),
    addFiles: async (files, skipped) => (await work()).addFiles(r, files, skipped),
    addText: async (title, text) => (await work()).addText(r, title, text),
    stop: () => r.batches.forEach((b) => b.controller.abort(new DOMException('Stopped by the user', 'AbortError'))),
    dismissReport: (id) => state.dispatch({ type: 'reportDismissed', id }),
    remove: async (id) => (await work()).remove(r, id),
    // A read, not a change: no job, no relisting; a library that cannot open says so in its status.
    source: async (docId) => (await r.connection()).source(docId),
    loadSample: async () => (await work()).loadSample(r),
    removeSamples: async () => (await work()).removeSamples(r),
  };
  const view = { get: () => state.get().view, subscribe: state.subscribe, actions };

  return {
    view,
    retriever: async (settings?: RetrievalSettings, judge?: PassageJudge): Promise<Retriever> => {
      const lib = await r.connection();
      return settings ? lib.retrieverWith(settings, judge) : lib.retriever;
    },
    connection: r.connection,
    /** The vector index the library opened with (null before it opens: the settings' choice is what it will open with). */
    openedWith: () => r.openedWith,
    /** Embeds the documents kept without vectors (the embedding model loads now), then lists them anew. */
    async embedPending(): Promise<void> {
      const lib = await r.connection();
      await lib.embedPending();
      await refresh();
    },
    start() {
      void refresh().catch(() => undefined);
    },
  };
}
