// Where this visit keeps things, as the storage plan (wiring/storage-plan.ts) decides it and the
// storage notice (view/storage-notice.ts) words it: the mode, and what the browser's probe
// (browser/storage-probe.ts) found. Plain data, so the notice reads it without the effects.

export type StorageAccessState = 'unavailable' | 'granted' | 'prompt' | 'denied';

export interface StorageProbe {
  localStorage: boolean;
  indexedDB: boolean;
  caches: boolean;
  opfs: boolean;
  /** Inside a frame whose top page is on another site. */
  crossSite: boolean;
  /** The Storage Access API: whether it exists here, and what its permission says. */
  storageAccess: StorageAccessState;
  /** True when this frame already sees the app site's own (unpartitioned) storage. */
  hasStorageAccess: boolean;
}

export type StorageMode = 'own' | 'partitioned' | 'shared' | 'memory';

export interface StoragePlanState {
  /** null until the probe has run. */
  mode: StorageMode | null;
  probe: StorageProbe | null;
  /** The Storage Access button is offered (a cross-site frame where the browser can grant it). */
  canAsk: boolean;
  asking: boolean;
  /** The browser (or the visitor) said no; the page goes on as it is. */
  refused: boolean;
  /** Why the library fell back to memory although the probe said IndexedDB works. */
  fellBack?: string;
}
