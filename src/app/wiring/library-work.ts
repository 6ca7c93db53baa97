// The library connection's work, loaded when the library opens (after the first paint): opening
// the library facade (src/library), following its progress (a batch's bar repainted at most four
// times a second), listing its documents, and the panel's actions that change it (batches of
// files, one at a time, each with its own Stop).
import type { Embedder } from '../../core/ports';
import { errorMessage } from '../../core/errors';
import type { NamedBlob } from '../../library/ingest';
import type { Library, LibraryProgress } from '../../library/library';
import { quotaMessage } from '../view/storage-messages';
import { batchJob, batchReport, fileJob, refusal } from '../view/library-progress';
import { docRow } from '../view/library-panel';
import type { LibraryRunner as Runner } from './library-connection';

function onProgress(r: Runner, p: LibraryProgress): void {
  const batch = r.batches[0];
  const now = Date.now();
  if (batch && p.bytesTotal !== undefined) {
    const { job, recognisingSince } = batchJob(p, batch.startedAt, r.state.get().recognisingSince, now);
    const added = p.doc ? docRow(p.doc) : undefined;
    const withdrawn = p.withdrawn;
    r.state.dispatch({
      type: 'batchProgressed',
      job,
      recognisingSince,
      ...(added ? { added } : {}),
      ...(withdrawn ? { withdrawn } : {}),
    });
    r.repaint ??= setTimeout(() => {
      r.repaint = null;
      if (r.batches.length > 0) r.state.dispatch({ type: 'batchRepainted' });
    }, 250);
    // The status's vector count follows the documents as they go in, not only when the batch ends.
    if (added) r.redescribe ??= setTimeout(() => void redescribe(r), 1000);
    return;
  }
  const id = `${p.fileIndex}:${p.name}`;
  if (p.stage !== 'added' && p.stage !== 'refused') {
    r.state.dispatch({ type: 'fileProgressed', job: fileJob(p, id, r.state.get().fileStarted[id] ?? now) });
    return;
  }
  r.state.dispatch({ type: 'fileDone', id, ...(p.stage === 'refused' ? { refused: refusal(p) } : {}) });
  void refresh(r);
}

async function redescribe(r: Runner): Promise<void> {
  r.redescribe = null;
  const lib = await r.connection();
  const index = await describeIndex(r, lib).catch(() => null);
  if (index && r.state.get().index) r.state.dispatch({ type: 'indexDescribed', index });
}

/** Which vector index serves and why ('auto' may have switched since the last time); a switch in progress is followed to its end. */
async function describeIndex(r: Runner, lib: Library): Promise<string> {
  const index = await lib.indexStatus();
  const where = lib.persistent ? '' : '; kept in memory for this visit (the browser gives this page no storage)';
  const text = `Vectors: ${index.reason}. Words: a BM25 index. Both in their own worker${where}`;
  if (index.switching)
    setTimeout(
      () =>
        void describeIndex(r, lib).then(
          (next) => r.state.dispatch({ type: 'indexDescribed', index: next }),
          () => undefined,
        ),
      2000,
    );
  return text;
}

/** Opens the library (once): the browser's facade over the store, the index worker and the embedder. */
export async function open(r: Runner): Promise<Library> {
  const { opts } = r;
  r.state.dispatch({ type: 'opening' });
  r.openedWith = opts.indexKind?.() ?? null;
  try {
    // The embedding model not starting never keeps the library shut: it opens with its words, and
    // each use of the model says why it cannot run (documents wait for their vectors, questions search words).
    const [{ openBrowserLibrary }, embedder] = await Promise.all([
      import('../../library/browser'),
      opts.embedder().catch((e: unknown): Embedder => ({ embed: () => Promise.reject(e) })),
    ]);
    const lib = await openBrowserLibrary({
      ...(r.openedWith ? { indexKind: r.openedWith } : {}),
      embedder,
      embedderId: await opts.embedderId?.().catch(() => undefined),
      ...(opts.rerank ? { rerank: opts.rerank } : {}),
      ...(opts.openStore ? { openStore: opts.openStore } : {}),
      ...(opts.keepOriginals ? { keepOriginals: opts.keepOriginals } : {}),
      baseUrl: opts.baseURI,
      onProgress: (p) => onProgress(r, p),
      // Another tab added or removed a document: show the same list here.
      onExternalChange: () => void refresh(r).catch(() => undefined),
      // The site's corpus is searched from the first question on: the status says how much of it.
      onSiteCorpus: (about) => r.state.dispatch({ type: 'corpusFound', ...about }),
    });
    r.state.dispatch({ type: 'opened', index: await describeIndex(r, lib), warnings: lib.warnings });
    return lib;
  } catch (e) {
    r.state.dispatch({ type: 'openFailed', message: errorMessage(e) });
    throw e;
  }
}

/** Lists the documents anew (and which index serves, once the library has opened). */
export async function refresh(r: Runner): Promise<void> {
  const lib = await r.connection();
  if (r.state.get().index) r.state.dispatch({ type: 'indexDescribed', index: await describeIndex(r, lib) });
  const docs = await lib.list();
  r.state.dispatch({ type: 'listed', docs: docs.map(docRow) });
}

/** Runs one user batch with its own Stop; batches queue in the library one after another. */
async function runBatch(
  r: Runner,
  lib: Library,
  files: Array<File | NamedBlob>,
  skipped: number,
  title?: { title: string; text: string },
  origin: 'user' | 'sample' = 'user',
): Promise<void> {
  const controller = new AbortController();
  const entry = { startedAt: Date.now(), controller };
  r.batches.push(entry);
  r.state.dispatch({ type: 'busy', busy: true });
  try {
    const result = title
      ? await lib.addText(title.title, title.text, { signal: controller.signal })
      : await lib.addFiles(files, { signal: controller.signal, origin });
    const id = r.state.get().lastReportId + 1;
    r.state.dispatch({ type: 'reported', report: batchReport(result, id, title ? 1 : files.length, skipped) });
    // A batch may have taken the library past the size where 'auto' switches index.
    r.state.dispatch({ type: 'indexDescribed', index: await describeIndex(r, lib) });
  } finally {
    r.batches.splice(r.batches.indexOf(entry), 1);
    if (r.batches[0]) r.batches[0].startedAt = Date.now();
    r.state.dispatch({ type: 'busy', busy: r.batches.length > 0 });
  }
}

/** A panel action on the open library: a failure is said in the panel; the list is read anew after it. */
async function guarded(r: Runner, fn: (lib: Library) => Promise<void>, relist = true): Promise<void> {
  let failed = false;
  try {
    await fn(await r.connection());
  } catch (e) {
    failed = true;
    r.state.dispatch({ type: 'said', kind: 'error', text: quotaMessage(e, 'the document') ?? errorMessage(e) });
  } finally {
    r.state.dispatch({ type: 'jobsCleared' });
    if (relist || failed || !r.state.get().view.ready) await refresh(r).catch(() => undefined);
  }
}

/** The site's sample documents, as a batch. */
async function addSamples(r: Runner, lib: Library): Promise<void> {
  const base = new URL('sample/', r.opts.baseURI);
  const res = await fetch(new URL('manifest.json', base));
  if (!res.ok) throw new Error('The sample documents are not part of this site.');
  const manifest = (await res.json()) as { documents?: { file: string; type?: string }[] };
  const files: File[] = [];
  for (const d of manifest.documents ?? []) {
    const got = await fetch(new URL(d.file, base));
    if (got.ok) files.push(new File([await got.arrayBuffer()], d.file, { type: d.type ?? 'text/plain' }));
  }
  await runBatch(r, lib, files, 0, undefined, 'sample');
}

// The list already followed the batch document by document: no relisting after it.
export const addFiles = (r: Runner, files: Array<File | NamedBlob>, skipped = 0) =>
  guarded(r, (lib) => runBatch(r, lib, files, skipped), false);
export const addText = (r: Runner, title: string, text: string) =>
  guarded(r, (lib) => runBatch(r, lib, [], 0, { title, text }));
export const remove = (r: Runner, id: string) =>
  guarded(r, async (lib) => {
    await lib.remove(id);
  });
export const loadSample = (r: Runner) => guarded(r, (lib) => addSamples(r, lib));
export const removeSamples = (r: Runner) =>
  guarded(r, async (lib) => {
    for (const d of await lib.list()) if (d.origin === 'sample') await lib.remove(d.id);
  });
