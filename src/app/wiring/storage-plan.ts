// Where this visit keeps things, decided once at start-up from what the browser allows:
//   own          the page's own storage (a top-level visit, or a same-site frame);
//   partitioned  a cross-site frame with storage of its own for this host site only;
//   shared       a cross-site frame the visitor let use the app site's own storage (Storage Access);
//   memory       no storage at all: the library lives in memory until the page closes.
// The visitor's click on "Use the library and models saved on <app site>" asks for access;
// once granted the page reloads and opens the shared library (the browser grants again silently).
// In mode shared the models are the app site's too: the model workers reach its caches through
// the saved-storage relay (src/app/browser/saved-storage-relay.ts), and settings are its own.
import { createStore } from '../state/store';
import type { StorageMode, StoragePlanState, StorageProbe } from '../state/storage-plan';
import type { SavedStorage } from '../browser/storage-access';
import type { LibraryStorage } from '../../library/store';
import { errorMessage } from '../../core/errors';

export interface StoragePlan {
  get(): StoragePlanState;
  subscribe(fn: () => void): () => void;
  /** Resolves once the mode is known (the probe, and a silent re-grant where one was given). */
  ready(): Promise<StoragePlanState>;
  /** Opens the library's store where this visit keeps things (memory when nothing else opens). */
  openStore(dbName: string): Promise<LibraryStorage>;
  /** The visitor's click: asks for the app site's storage, and reloads into it when granted. */
  ask(): Promise<void>;
  /** localStorage for settings: the page's own, the shared one, or none. */
  settingsStorage(): Storage | undefined;
  /** The app site's IndexedDB in mode shared (conversations are kept there too). */
  savedIndexedDB(): IDBFactory | undefined;
  /** Cache Storage holding this visit's models (the app site's in mode shared); undefined when there is none. */
  modelCaches(): Promise<CacheStorage | undefined>;
  /** In mode shared, a maker of ports to the app site's storage for the model workers; else undefined. */
  savedStorage(): Promise<(() => MessagePort) | undefined>;
}

export interface StoragePlanDeps {
  probe?: () => Promise<StorageProbe>;
  request?: () => Promise<SavedStorage | null>;
  reload?: () => void;
  openIndexedDB?: (dbName: string, factory?: IDBFactory) => Promise<LibraryStorage>;
  openMemory?: () => Promise<LibraryStorage>;
  /** The page's own Cache Storage (a test passes its own). */
  pageCaches?: () => CacheStorage | undefined;
  /** Serves the granted storage to a worker (src/app/browser/saved-storage-relay.ts). */
  serve?: (saved: SavedStorage) => MessagePort;
  /** web-llm's main-thread cache helpers (model marks, delete) read the global `caches`: given the grant's in mode shared. */
  adoptCaches?: (caches: CacheStorage) => void;
}

export function decideMode(probe: StorageProbe, shared: SavedStorage | null): StorageMode {
  if (shared?.indexedDB) return 'shared';
  if (!probe.indexedDB) return 'memory';
  return probe.crossSite && !probe.hasStorageAccess ? 'partitioned' : 'own';
}

export function createStoragePlan(deps: StoragePlanDeps = {}): StoragePlan {
  // The probe and the request load beside the first paint (the entry's download has a budget).
  const probe = deps.probe ?? (async () => (await import('../browser/storage-probe')).probeStorage());
  const request = deps.request ?? (async () => (await import('../browser/storage-access')).requestSavedStorage());
  const openIndexedDB =
    deps.openIndexedDB ??
    (async (name, factory) => (await import('../../library/store')).LibraryStore.open(name, factory));
  const openMemory =
    deps.openMemory ?? (async () => new (await import('../../library/memory-store')).MemoryLibraryStore());
  const state = createStore<StoragePlanState>({
    mode: null,
    probe: null,
    canAsk: false,
    asking: false,
    refused: false,
  });
  const patch = (p: Partial<StoragePlanState>) => state.set({ ...state.get(), ...p });
  let shared: SavedStorage | null = null;

  const decided = (async () => {
    const p = await probe();
    // Granted on an earlier visit: the browser hands the storage over without asking again.
    if (p.crossSite && p.storageAccess === 'granted' && !p.hasStorageAccess) shared = await request().catch(() => null);
    const mode = decideMode(p, shared);
    if (mode === 'shared' && shared?.caches) (deps.adoptCaches ?? adoptCaches)(shared.caches);
    patch({
      probe: p,
      mode,
      canAsk:
        p.crossSite &&
        mode !== 'shared' &&
        !p.hasStorageAccess &&
        p.storageAccess !== 'unavailable' &&
        p.storageAccess !== 'denied',
    });
    return state.get();
  })();

  return {
    get: state.get,
    subscribe: state.subscribe,
    ready: () => decided,
    async openStore(dbName) {
      const { mode } = await decided;
      if (mode !== 'memory') {
        try {
          return await openIndexedDB(dbName, mode === 'shared' ? shared?.indexedDB : undefined);
        } catch (e) {
          // The probe's database opened but the library's does not (a private mode's quota, a broken profile).
          patch({ mode: 'memory', fellBack: errorMessage(e) });
        }
      }
      return openMemory();
    },
    async ask() {
      if (state.get().asking) return;
      patch({ asking: true, refused: false });
      const got = await request().catch(() => null);
      if (got?.indexedDB) {
        (deps.reload ?? (() => location.reload()))();
        return;
      }
      patch({ asking: false, refused: true });
    },
    settingsStorage() {
      if (shared?.localStorage) return shared.localStorage;
      return state.get().probe?.localStorage ? globalThis.localStorage : undefined;
    },
    savedIndexedDB: () => shared?.indexedDB,
    async modelCaches() {
      const { mode, probe: p } = await decided;
      if (mode === 'shared' && shared?.caches) return shared.caches;
      if (!p?.caches) return undefined;
      return (deps.pageCaches ?? (() => globalThis.caches))();
    },
    async savedStorage() {
      const { mode } = await decided;
      const granted = shared;
      if (mode !== 'shared' || !granted) return undefined;
      const serve = deps.serve ?? (await import('../browser/saved-storage-relay')).serveSavedStorage;
      return () => serve(granted);
    },
  };
}

/** The page's own Cache Storage throws in a cross-site frame; the grant's is the one the visitor chose. */
function adoptCaches(caches: CacheStorage): void {
  try {
    Object.defineProperty(globalThis, 'caches', { value: caches, configurable: true, writable: true });
  } catch {
    // Not redefinable here: web-llm's model marks stay unknown, the models load all the same.
  }
}
