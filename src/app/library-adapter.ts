// Adapts the library facade (src/library) to what the page shows.
import type { Embedder, Retriever } from '../core/ports';
import { emptyLibraryView, type LibraryActions, type LibraryViewState } from './library-view';
import type { StatusStore } from './status';

export type LibraryConnection = unknown;

export function connectLibrary(opts: { status: StatusStore; baseURI: string; embedder: () => Promise<Embedder> }) {
  let view: LibraryViewState = emptyLibraryView;
  const listeners = new Set<() => void>();
  const fail = async (): Promise<never> => {
    throw new Error('The library is not available in this build.');
  };
  const actions: LibraryActions = { addFiles: fail, addText: fail, remove: fail, loadSample: fail };
  return {
    view: {
      get: () => view,
      subscribe(fn: () => void) {
        listeners.add(fn);
        return () => listeners.delete(fn);
      },
      actions,
    },
    retriever: (): Promise<Retriever> => fail(),
    connection: (): Promise<LibraryConnection> => fail(),
    start() {
      void opts;
      view = { ...view, ready: true };
      for (const fn of listeners) fn();
    },
  };
}
