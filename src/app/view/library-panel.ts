// The library as the page shows it. wiring/library-connection.ts adapts the library facade to
// this, so the panel renders before the library (and its models) has loaded.
import type { NamedBlob } from '../../library/ingest';
import type { LibraryDocView, LibraryViewState } from '../state/library';
import type { Passage } from '../../core/ports';
import type { StoredDocument, StoredOriginal } from '../../library/store';

export interface DocumentSource {
  doc: StoredDocument;
  passages: Passage[];
  original?: StoredOriginal;
}

/** A stored document as the list shows it. */
export function docRow(d: {
  id: string;
  title: string;
  name: string;
  passageCount: number;
  bytes?: number;
  pendingEmbedding?: true;
  origin?: string;
  originalBytes?: number;
}): LibraryDocView {
  return {
    id: d.id,
    title: d.title,
    name: d.name,
    passages: d.passageCount,
    ...(d.bytes !== undefined ? { bytes: d.bytes } : {}),
    ...(d.pendingEmbedding ? { pending: true } : {}),
    ...(d.origin === 'sample' ? { sample: true } : {}),
    ...(d.originalBytes !== undefined ? { originalBytes: d.originalBytes } : {}),
  };
}

const counted = (n: number, what: string) => `${n.toLocaleString('en')} ${what}${n === 1 ? '' : 's'}`;

/**
 * How many documents the library holds, the user's own and the site's samples apart: the one count
 * the folded heading and the Find box both give (they once said 15 and 20 of the same library).
 */
export function docsCount(docs: ReadonlyArray<Pick<LibraryDocView, 'id' | 'sample'>>): string {
  const samples = docs.filter((d) => d.sample).length;
  const own = docs.length - samples;
  if (own === 0) return counted(samples, 'sample document');
  return samples === 0 ? counted(own, 'document') : `${counted(own, 'document')} + ${counted(samples, 'sample')}`;
}

/** The library's folded heading on a phone: a newcomer reads there where documents are added, anyone that a batch goes in. */
export function libraryLabel(view: Pick<LibraryViewState, 'docs' | 'busy'>): string {
  const own = view.docs.filter((d) => !d.sample).length;
  const adding = view.busy ? ' · adding documents…' : '';
  if (own === 0) return view.busy ? 'Library: adding documents…' : 'Library: add your documents';
  return `Library: ${docsCount(view.docs)}${adding}`;
}

/**
 * Whether the library should be open on a phone: for a newcomer (how to add documents), while a
 * batch goes in (its progress and Stop) and while a batch's report waits to be read.
 */
export function libraryWantsOpen(view: LibraryViewState): boolean {
  if (!view.ready) return false;
  const newcomer = !view.docs.some((d) => !d.sample);
  return newcomer || !!view.busy || view.jobs.length > 0 || (view.reports?.length ?? 0) > 0;
}

export interface LibraryActions {
  /** `skipped`: files a folder walk left out because they are not documents. */
  addFiles(files: Array<File | NamedBlob>, skipped?: number): Promise<void>;
  /** Stops the running batch; finished documents stay, the one being embedded stays by its words, the rest are not tried. */
  stop?(): void;
  dismissReport?(id: number): void;
  addText(title: string, text: string): Promise<void>;
  remove(id: string): Promise<void>;
  loadSample(): Promise<void>;
  /** A document with its passages and kept original, for the source viewer; undefined when it is not in the library (a site corpus's passage). */
  source?(docId: string): Promise<DocumentSource | undefined>;
  /** Removes every sample document at once (the visitor's own stay). */
  removeSamples?(): Promise<void>;
  dismiss(messageId: number): void;
}
