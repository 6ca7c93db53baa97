// Adding files: each is read, parsed and chunked (in the library worker in the browser),
// embedded, then written; the batch reports progress per file and per embedding batch, and
// returns what was added, refused and noted. Nothing is handed back through shared state.
import { abortable } from '../core/abortable';
import type { Embedder } from '../core/ports';
import type { Catalog } from './catalog';
import {
  embedDocument,
  readAndPrepare,
  sizeOf,
  type FileLike,
  type PrepareOptions,
  type PreparedDocument,
} from './ingest';
import { pageProgress } from './ocr/progress';
import { isQuotaError, storageFullMessage } from './quota';
import type { StoredDocument, StoredOriginal } from './store';
import type { AddResult, LibraryDocument, LibraryOptions, LibraryProgress } from './types';
import { errorMessage } from '../core/errors';

/**
 * One document written; with the passages dropped on the way and why. When no passage could be
 * embedded (the embedding model did not load) the document is kept without vectors, found by
 * its words, and `pending` says so.
 */
export interface IngestOutcome {
  doc: LibraryDocument;
  pending: boolean;
  dropped: number;
  /** Why the first dropped passage was dropped. */
  reason?: string;
}

/**
 * Writes a prepared document's words first (kept as waiting for its vectors, as a document the
 * embedding model could not embed is: found by its words at once, even while a long batch is still
 * embedding), then embeds it, dropping passages that cannot be embedded, and writes it again with
 * its vectors. A document given its vectors is written once. `onWords` hears the document as first
 * written: if the embedding is stopped or fails after it, that document stays, found by words, and
 * is embedded later like any document waiting for its vectors (Library.embedPending).
 */
export async function ingestDocument(
  catalog: Catalog,
  embedder: Embedder,
  prepared: PreparedDocument,
  origin: StoredDocument['origin'],
  opts: {
    signal?: AbortSignal;
    onBatch?: (done: number, total: number) => void;
    onWords?: (doc: LibraryDocument) => void;
    vectors?: Float32Array[];
    bytes?: number;
    original?: StoredOriginal;
  } = {},
): Promise<IngestOutcome> {
  const { signal, onBatch, bytes, original } = opts;
  const write = (
    passages: PreparedDocument['passages'],
    vectors: Float32Array[],
    more: { pendingEmbedding?: boolean; original?: StoredOriginal } = {},
  ) =>
    catalog.put({ ...prepared, passages }, vectors, origin, {
      ...(signal ? { signal } : {}),
      ...(bytes !== undefined ? { bytes } : {}),
      ...more,
    });
  const withOriginal = original ? { original } : {};
  if (opts.vectors || prepared.passages.length === 0)
    return { doc: await write(prepared.passages, opts.vectors ?? [], withOriginal), pending: false, dropped: 0 };
  const words = await write(prepared.passages, [], { pendingEmbedding: true, ...withOriginal });
  opts.onWords?.(words);
  const embedded = await embedDocument(embedder, prepared.passages, {
    ...(signal ? { signal } : {}),
    ...(onBatch ? { onBatch } : {}),
  });
  const outcome = { dropped: embedded.dropped, ...(embedded.reason !== undefined ? { reason: embedded.reason } : {}) };
  // Nothing could be embedded: the words written first are what the library keeps.
  if (embedded.passages.length === 0) return { doc: words, pending: true, ...outcome };
  return { doc: await write(embedded.passages, embedded.vectors), pending: false, ...outcome };
}

export type BatchOptions = Pick<
  LibraryOptions,
  'embedder' | 'onProgress' | 'prepare' | 'measure' | 'chunk' | 'pdf' | 'maxFileBytes' | 'keepOriginals'
>;

const MIME: Record<string, string> = {
  pdf: 'application/pdf',
  html: 'text/html',
  markdown: 'text/markdown',
  text: 'text/plain',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  epub: 'application/epub+zip',
};

/**
 * The file as it came, for the source viewer: the user's File or Blob itself (no copy is read),
 * or the bytes a caller handed over. Pasted text has no file beyond its text.
 */
function originalOf(file: FileLike, prepared: PreparedDocument): StoredOriginal {
  const { format, name } = prepared.parsed;
  const blob =
    'blob' in file
      ? file.blob
      : 'bytes' in file && file.bytes instanceof Uint8Array
        ? new Blob([file.bytes as Uint8Array<ArrayBuffer>])
        : (file as unknown as Blob);
  return {
    docId: prepared.id,
    name,
    type: blob.type || (file as { type?: string }).type || MIME[format] || 'application/octet-stream',
    blob,
  };
}

/** The notes of a document just added: a copy of another, what its parser noted, what could not be embedded. */
function noteAdded(
  result: AddResult,
  name: string,
  prepared: PreparedDocument,
  sameAs: string | undefined,
  { pending, dropped, reason }: Omit<IngestOutcome, 'doc'>,
): void {
  if (sameAs !== undefined && sameAs !== name)
    result.notes.push({ name, note: `it has the same text as ${sameAs}, so the library keeps it once` });
  for (const note of prepared.parsed.notes ?? []) result.notes.push({ name, note });
  if (pending) result.notEmbedded.push({ name, reason: reason ?? 'the embedding model did not run' });
  else if (dropped > 0)
    result.notes.push({
      name,
      note: `${dropped} of ${prepared.passages.length} passages could not be embedded and were left out (${reason}); the rest of the document was added`,
    });
}

/**
 * Takes out again a document whose words went in but whose vectors could not be written, so the
 * file is refused with the library as it was; one kept before this batch (waiting for its vectors
 * then too) stays as it was. False when it could not be taken out: it stays, found by its words.
 */
async function withdraw(catalog: Catalog, doc: LibraryDocument, existed: boolean): Promise<boolean> {
  if (existed) return true;
  return catalog.remove(doc.id, { announce: true }).then(
    () => true,
    () => false,
  );
}

/** Why a document whose words went in waits for its vectors: the batch was stopped, or writing them failed. */
function waitingReason(e: unknown, stopped: boolean): string {
  if (stopped) return 'adding was stopped before its passages were embedded';
  if (isQuotaError(e)) return storageFullMessage();
  return `its vectors could not be saved (${errorMessage(e)})`;
}

/** Adds files one after another; a file that fails is refused by name and the batch goes on. */
export async function ingestBatch(
  catalog: Catalog,
  opts: BatchOptions,
  files: FileLike[],
  batch: { origin: StoredDocument['origin']; signal?: AbortSignal; title?: string },
): Promise<AddResult> {
  const { origin, signal, title } = batch;
  const result: AddResult = { added: [], refused: [], notes: [], notEmbedded: [], already: [], aborted: false };
  const sizes = opts.measure ? await opts.measure(files) : files.map((f) => sizeOf(f) ?? 0);
  const bytesTotal = sizes.reduce((a, b) => a + b, 0);
  let bytesDone = 0;
  const report = (p: Omit<LibraryProgress, 'fileCount' | 'filesDone' | 'bytesDone' | 'bytesTotal'>, partial = 0) =>
    opts.onProgress?.({
      ...p,
      fileCount: files.length,
      filesDone: result.added.length + result.refused.length + result.already.length,
      bytesDone: bytesDone + partial,
      bytesTotal,
    });
  const prepare = opts.prepare ?? ((f: FileLike, o: PrepareOptions) => readAndPrepare(f, o));
  const prepareOpts: PrepareOptions = {
    ...(opts.chunk ? { chunk: opts.chunk } : {}),
    ...(opts.pdf ? { pdf: opts.pdf } : {}),
    ...(opts.maxFileBytes ? { maxBytes: opts.maxFileBytes } : {}),
    ...(title ? { title } : {}),
  };
  // The document whose words are written and whose vectors are not yet (set from ingestDocument's callback).
  const wordsOnly: { doc: LibraryDocument | null; existed: boolean } = { doc: null, existed: false };
  for (const [fileIndex, file] of files.entries()) {
    if (signal?.aborted) {
      result.aborted = true;
      break;
    }
    const { name } = file;
    const size = sizes[fileIndex] ?? 0;
    const listAdded = (doc: LibraryDocument, passagesDone = doc.passageCount) =>
      report({ name, fileIndex, stage: 'added', passagesDone, passagesTotal: doc.passageCount, doc });
    const refuse = (reason: string, withdrawn?: string) => {
      result.refused.push({ name, reason });
      bytesDone += size;
      report({ name, fileIndex, stage: 'refused', message: reason, ...(withdrawn ? { withdrawn } : {}) });
    };
    try {
      report({ name, fileIndex, stage: 'reading' });
      // A parse in the worker cannot be interrupted: a Stop rejects at once instead of waiting for it.
      // A scan's pages are reported as they are recognised, with the time left.
      const onOcr = pageProgress((p) => report({ name, fileIndex, stage: 'recognising', ...p }));
      const outcome = await abortable(() => prepare(file, prepareOpts, signal, onOcr), signal);
      if (!outcome.ok) {
        refuse(outcome.reason);
        continue;
      }
      // Content-addressed: the same text is one document. Already kept (embedded, from the same
      // kind of source) it is not added again, nor counted as added; a copy of a sample the user
      // adds becomes the user's, and one kept without vectors gets its chance to be embedded.
      const same = await catalog.store.getDocument(outcome.doc.id);
      if (same && same.origin === origin && !same.pendingEmbedding) {
        result.already.push({ name, as: same.name });
        bytesDone += size;
        const { text: _text, ...kept } = same;
        listAdded(kept);
        continue;
      }
      const keep = !title && (opts.keepOriginals?.() ?? true);
      const passagesTotal = outcome.doc.passages.length;
      const { doc, pending, dropped, reason } = await ingestDocument(catalog, opts.embedder, outcome.doc, origin, {
        ...(signal ? { signal } : {}),
        ...(keep ? { original: originalOf(file, outcome.doc) } : {}),
        // Found by its words from here on: the list shows it, waiting for its vectors.
        onWords: (d) => {
          wordsOnly.doc = d;
          wordsOnly.existed = !!same;
          report({ name, fileIndex, stage: 'embedding', passagesDone: 0, passagesTotal, doc: d });
        },
        onBatch: (done, total) =>
          report(
            { name, fileIndex, stage: 'embedding', passagesDone: done, passagesTotal: total },
            total ? (size * done) / total : 0,
          ),
        bytes: outcome.bytes,
      });
      wordsOnly.doc = null;
      noteAdded(result, name, outcome.doc, same?.name, {
        pending,
        dropped,
        ...(reason !== undefined ? { reason } : {}),
      });
      result.added.push(doc);
      bytesDone += size;
      listAdded(doc);
    } catch (e) {
      const stopped = !!signal?.aborted;
      const { doc: written, existed } = wordsOnly;
      wordsOnly.doc = null;
      // Stopped after its words were written: it stays, found by them, and the report says it
      // waits for its vectors (embedded later, as any document kept without them). A failure to
      // write its vectors (a full quota) refuses it and leaves the library as it was.
      const gone = written && !stopped ? await withdraw(catalog, written, existed) : null;
      const kept = gone === null ? written : gone ? null : written;
      if (kept) {
        result.added.push(kept);
        result.notEmbedded.push({ name, reason: waitingReason(e, !!signal?.aborted) });
        bytesDone += size;
        listAdded(kept, 0);
      }
      if (signal?.aborted) {
        result.aborted = true;
        break;
      }
      if (!kept)
        refuse(
          isQuotaError(e) ? storageFullMessage() : `it could not be added (${errorMessage(e)})`,
          written && !existed ? written.id : undefined,
        );
    }
  }
  return result;
}
