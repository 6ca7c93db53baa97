// Which kinds of storage this page may use. A cross-site frame gets none of them where the
// browser blocks third-party storage (Chromium's default here throws SecurityError from
// localStorage, IndexedDB, Cache Storage and OPFS alike), and a separate, empty set per host
// site where it partitions it; some private modes refuse IndexedDB even to a top-level page.
import type { StorageAccessState, StorageProbe } from '../state/storage-plan';

/** The parts of the page the probe reads (a test passes its own). */
export interface ProbeEnv {
  localStorage?: () => Storage;
  indexedDB?: () => IDBFactory;
  caches?: () => CacheStorage;
  storage?: () => { getDirectory?: () => Promise<unknown> } | undefined;
  document?: { hasStorageAccess?: () => Promise<boolean>; requestStorageAccess?: unknown; referrer?: string };
  permissions?: { query(d: { name: string }): Promise<{ state: string }> };
  location?: { hostname: string; ancestorOrigins?: ArrayLike<string> };
  framed?: boolean;
}

function pageEnv(): ProbeEnv {
  const w = globalThis as unknown as Window & typeof globalThis;
  return {
    localStorage: () => w.localStorage,
    indexedDB: () => w.indexedDB,
    caches: () => w.caches,
    storage: () => w.navigator?.storage as unknown as { getDirectory?: () => Promise<unknown> },
    document: w.document as unknown as ProbeEnv['document'],
    permissions: w.navigator?.permissions as unknown as ProbeEnv['permissions'],
    location: w.location as unknown as ProbeEnv['location'],
    framed: w.parent !== undefined && w.parent !== w,
  };
}

const PROBE_DB = 'selfrag-storage-probe';

async function works(fn: () => Promise<unknown> | unknown): Promise<boolean> {
  try {
    await fn();
    return true;
  } catch {
    return false;
  }
}

function openAndDrop(factory: IDBFactory): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = factory.open(PROBE_DB);
    req.onsuccess = () => {
      req.result.close();
      factory.deleteDatabase(PROBE_DB);
      resolve();
    };
    req.onerror = () => reject(req.error ?? new Error('IndexedDB did not open'));
    req.onblocked = () => reject(new Error('IndexedDB open was blocked'));
  });
}

/** The last two labels of a host name: enough to tell localhost, 127.0.0.1 and example.com apart, not a public-suffix list. */
export function roughSite(hostname: string): string {
  if (/^[\d.]+$/.test(hostname) || hostname.includes(':')) return hostname;
  return hostname.split('.').slice(-2).join('.');
}

function topHostname(env: ProbeEnv): string | null {
  const ancestors = env.location?.ancestorOrigins;
  const top = ancestors && ancestors.length > 0 ? ancestors[ancestors.length - 1] : env.document?.referrer;
  try {
    return top ? new URL(top).hostname : null;
  } catch {
    return null;
  }
}

export async function probeStorage(env: ProbeEnv = pageEnv()): Promise<StorageProbe> {
  const [localStorage, indexedDB, caches, opfs] = await Promise.all([
    works(() => {
      const s = env.localStorage?.();
      if (!s) throw new Error('no localStorage');
      s.setItem(PROBE_DB, '1');
      s.removeItem(PROBE_DB);
    }),
    works(() => {
      const f = env.indexedDB?.();
      if (!f) throw new Error('no IndexedDB');
      return openAndDrop(f);
    }),
    works(async () => {
      const c = env.caches?.();
      if (!c) throw new Error('no Cache Storage');
      await c.has(PROBE_DB);
    }),
    works(async () => {
      const get = env.storage?.()?.getDirectory;
      if (!get) throw new Error('no OPFS');
      await get.call(env.storage?.());
    }),
  ]);
  const top = env.framed ? topHostname(env) : null;
  const crossSite = !!env.framed && (top === null || roughSite(top) !== roughSite(env.location?.hostname ?? ''));
  const doc = env.document;
  let storageAccess: StorageAccessState = 'unavailable';
  let hasAccess = !crossSite;
  if (typeof doc?.requestStorageAccess === 'function') {
    storageAccess = 'prompt';
    try {
      const s = (await env.permissions?.query({ name: 'storage-access' }))?.state;
      if (s === 'granted' || s === 'denied' || s === 'prompt') storageAccess = s;
    } catch {
      // The permission is not queryable in this browser: asking is still possible.
    }
    if (crossSite) hasAccess = (await doc.hasStorageAccess?.().catch(() => false)) ?? false;
  }
  return { localStorage, indexedDB, caches, opfs, crossSite, storageAccess, hasStorageAccess: hasAccess };
}
