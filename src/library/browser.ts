// The library as the page opens it: index in its worker, parsing and chunking
// in the library worker (PDFs through pdfjs there), sample and pre-built index
// fetched relative to the page's base URL.
import type { IndexChoice } from '../vector/vector-index';
import { createIndexClient, createInProcessIndex, DEFAULT_INDEX_KIND } from './index-client';
import { Library, type LibraryOptions } from './library';
import { loadPdfJsInBrowser } from './parse/pdf-browser';
import { createPrepareClient } from './prepare-client';

export type BrowserLibraryOptions = Omit<LibraryOptions, 'index' | 'pdf' | 'prepare' | 'measure'> & {
  indexKind?: IndexChoice;
};

export async function openBrowserLibrary(opts: BrowserLibraryOptions): Promise<Library> {
  const { indexKind = DEFAULT_INDEX_KIND, ...rest } = opts;
  const hasWorker = typeof Worker === 'function';
  const index = hasWorker ? await createIndexClient(indexKind) : createInProcessIndex();
  const prepare = hasWorker ? createPrepareClient() : null;
  return Library.open({
    ...rest,
    index,
    pdf: loadPdfJsInBrowser,
    ...(prepare ? { prepare: prepare.prepare, measure: prepare.sizes, onClose: prepare.terminate } : {}),
  });
}
