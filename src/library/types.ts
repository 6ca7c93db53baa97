// The library's public shapes: what a caller opens it with, hears while it works, and gets back.
import type { ChunkOptions } from '../core/chunk';
import type { RelevanceScorer } from '../core/hybrid';
import type { Embedder } from '../core/ports';
import type { IndexHandle } from './index-host';
import type { FileLike, PrepareOptions, PrepareOutcome } from './ingest';
import type { OcrProgress } from './ocr/port';
import type { PdfLoader } from './parse';
import type { LibraryStorage, StoredDocument } from './store';

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
  /**
   * The document just written, so a list can follow without re-reading the library: at stage
   * 'embedding' with its words only (found by them, waiting for its vectors), at 'added' as kept.
   */
  doc?: LibraryDocument;
  /** At stage 'refused': the id of the document taken out again (its words went in, its vectors could not be written). */
  withdrawn?: string;
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
  /**
   * Added documents kept without vectors (no passage could be embedded: the embedding model did
   * not load or run), found by their words until it does and embedded then, with why. Apart from
   * `notes` so the page can say it once for the batch instead of once per document.
   */
  notEmbedded: Array<{ name: string; reason: string }>;
  /** Files whose text the library already holds (`as`: the name it is kept under): not added again, not counted as added. */
  already: Array<{ name: string; as: string }>;
  /**
   * The batch was stopped; documents before the stop are in, and the one in progress when its
   * words were already written (kept by them, in `notEmbedded`); files after it were not tried.
   */
  aborted: boolean;
}

export interface LibraryOptions {
  embedder: Embedder;
  /** Names the embedding model; stored vectors from another model are re-embedded at start-up. */
  embedderId?: string;
  index: IndexHandle;
  dbName?: string;
  /**
   * Where documents are kept (default: the page's IndexedDB). The page passes memory when the
   * browser gives it no storage, or the unpartitioned IndexedDB of a Storage Access handle.
   */
  openStore?: (dbName: string) => Promise<LibraryStorage>;
  chunk?: ChunkOptions;
  pdf?: PdfLoader;
  maxFileBytes?: number;
  /** Base URL of the site, for the shipped sample (`sample/`) and pre-built index (`index/`). */
  baseUrl?: string;
  /** Search the site's sharded corpus (`index/manifest.json`) beside the library when the site ships one (default true). */
  siteCorpus?: boolean;
  /** The site's sharded corpus opened (on the first question): how much of it is searched beside the library. */
  onSiteCorpus?: (about: { documents: number; passages: number }) => void;
  /** Load the pre-built index or the sample corpus into an empty library on first visit (default true). */
  seed?: boolean;
  fetch?: typeof fetch;
  onProgress?: (p: LibraryProgress) => void;
  /**
   * Reads, parses and chunks a file (in the library worker in the browser);
   * defaults to doing it on the calling thread.
   */
  prepare?: (
    file: FileLike,
    opts: PrepareOptions,
    signal?: AbortSignal,
    onOcr?: (p: OcrProgress) => void,
  ) => Promise<PrepareOutcome>;
  /** Sizes of the files in bytes, without reading them (off the main thread in the browser). */
  measure?: (files: FileLike[]) => Promise<number[]>;
  /** Called by close(), to stop helpers such as the library worker. */
  onClose?: () => void;
  /** Another tab (or window) added or removed a document; this library's index already follows. */
  onExternalChange?: () => void;
  /**
   * Whether to keep each added file beside its document for the source viewer (default yes);
   * read at every batch, so the user's setting applies from the next file added.
   */
  keepOriginals?: () => boolean;
  /** The cross-encoder, for re-ranking retrieved candidates (see core/hybrid.ts). */
  rerank?: RelevanceScorer;
}
