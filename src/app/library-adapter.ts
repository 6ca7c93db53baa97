// Adapts the library facade (src/library) to what the page shows: a document
// list, progress bars per ingestion, and messages for refused files. The
// library opens after first paint; until then the panel says so.
import type { Embedder, Retriever } from '../core/ports';
import type { IndexKind } from '../core/vector-index';
import type { Library, LibraryProgress } from '../library/library';
import { emptyLibraryView, type LibraryActions, type LibraryJobView, type LibraryViewState } from './library-view';
import type { StatusStore } from './status';
import { quotaMessage } from './storage';

export type LibraryConnection = Library;

let messageId = 0;

export function connectLibrary(opts: {
  status: StatusStore;
  baseURI: string;
  embedder: () => Promise<Embedder>;
  embedderId?: () => Promise<string | undefined>;
  /** The vector index to open the library with (read once, when it opens). */
  indexKind?: () => IndexKind;
}) {
  let view: LibraryViewState = emptyLibraryView;
  const listeners = new Set<() => void>();
  const set = (patch: Partial<LibraryViewState>) => {
    view = { ...view, ...patch };
    for (const fn of listeners) fn();
  };
  const say = (kind: 'error' | 'info', text: string) =>
    set({ messages: [...view.messages.slice(-3), { id: ++messageId, kind, text }] });

  const jobStarted = new Map<string, number>();
  const onProgress = (p: LibraryProgress) => {
    const id = `${p.fileIndex}:${p.name}`;
    if (!jobStarted.has(id)) jobStarted.set(id, Date.now());
    if (p.stage === 'added' || p.stage === 'refused') {
      jobStarted.delete(id);
      set({ jobs: view.jobs.filter((j) => j.id !== id) });
      if (p.stage === 'refused') say('error', quotaMessage(p.message, `the document ${p.name}`) ?? `${p.name} was not added: ${p.message ?? 'it could not be read.'}`);
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
    const others = view.jobs.filter((j) => j.id !== id);
    set({ jobs: [...others, job] });
  };

  let opened: Promise<Library> | null = null;
  const connection = (): Promise<Library> => {
    opened ??= (async () => {
      opts.status.update('library', { state: 'loading' });
      try {
        const [{ openBrowserLibrary }, embedder] = await Promise.all([import('../library/browser'), opts.embedder()]);
        const lib = await openBrowserLibrary({
          indexKind: opts.indexKind?.(),
          embedder,
          embedderId: await opts.embedderId?.(),
          baseUrl: opts.baseURI,
          onProgress,
          // Another tab added or removed a document: show the same list here.
          onExternalChange: () => void refresh().catch(() => undefined),
        });
        // Opening may have started the starter library; whatever it left unfinished is over now.
        jobStarted.clear();
        set({ jobs: [] });
        for (const w of lib.warnings) say('error', w);
        opts.status.update('library', {
          state: 'ready',
          device: 'cpu',
          reason: `${(await lib.indexKind()) === 'voy' ? 'voy k-d tree (WASM)' : 'flat exact search'} over normalised vectors, in its own worker`,
        });
        return lib;
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        opts.status.update('library', { state: 'error', error: `The library could not open: ${message}` });
        set({ ready: true });
        say('error', `The library could not open: ${message}`);
        throw e;
      }
    })();
    return opened;
  };

  async function refresh() {
    const lib = await connection();
    const docs = await lib.list();
    set({
      ready: true,
      docs: docs.map((d) => ({ id: d.id, title: d.title, passages: d.passageCount })),
    });
  }

  const guarded =
    <A extends unknown[]>(fn: (lib: Library, ...args: A) => Promise<void>) =>
    async (...args: A): Promise<void> => {
      try {
        await fn(await connection(), ...args);
      } catch (e) {
        say('error', quotaMessage(e, 'the document') ?? (e instanceof Error ? e.message : String(e)));
      } finally {
        set({ jobs: [] });
        await refresh().catch(() => undefined);
      }
    };

  // Refusals are announced once, by the progress callback as they happen.
  const report = (_r: { added: unknown[]; refused: { name: string; reason: string }[] }) => undefined;

  const actions: LibraryActions = {
    dismiss: (messageId) => set({ messages: view.messages.filter((m) => m.id !== messageId) }),
    addFiles: guarded(async (lib, files: File[]) => report(await lib.addFiles(files))),
    addText: guarded(async (lib, title: string, text: string) => report(await lib.addText(title, text))),
    remove: guarded(async (lib, id: string) => {
      await lib.remove(id);
    }),
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
      report(await lib.addFiles(files));
    }),
  };

  return {
    view: {
      get: () => view,
      subscribe(fn: () => void) {
        listeners.add(fn);
        return () => listeners.delete(fn);
      },
      actions,
    },
    retriever: async (): Promise<Retriever> => (await connection()).retriever,
    connection,
    start() {
      void refresh().catch(() => undefined);
    },
  };
}
