// Where a visit keeps things, from what the browser allows: the probe, the decision, the
// Storage Access button's path, and the notice's words.
import { describe, expect, it } from 'vitest';
import { probeStorage, type ProbeEnv } from '../../../../src/app/browser/storage-probe';
import type { StorageProbe } from '../../../../src/app/state/storage-plan';
import { requestSavedStorage } from '../../../../src/app/browser/storage-access';
import { createStoragePlan, decideMode } from '../../../../src/app/wiring/storage-plan';
import { storageNotice } from '../../../../src/app/view/storage-notice';
import type { LibraryStorage } from '../../../../src/library/store';

const denied = () => {
  throw new DOMException('Access is denied for this document.', 'SecurityError');
};

function blockedFrame(over: Partial<ProbeEnv> = {}): ProbeEnv {
  return {
    localStorage: denied,
    indexedDB: () => ({ open: denied }) as unknown as IDBFactory,
    caches: () => ({ has: () => Promise.reject(new DOMException('no', 'SecurityError')) }) as unknown as CacheStorage,
    storage: () => ({ getDirectory: () => Promise.reject(new DOMException('no', 'SecurityError')) }),
    document: { hasStorageAccess: async () => false, requestStorageAccess: () => undefined },
    permissions: { query: async () => ({ state: 'prompt' }) },
    location: { hostname: '127.0.0.1', ancestorOrigins: ['http://localhost:4000'] },
    framed: true,
    ...over,
  };
}

const probe = (p: Partial<StorageProbe>): StorageProbe => ({
  localStorage: true,
  indexedDB: true,
  caches: true,
  opfs: true,
  crossSite: false,
  storageAccess: 'unavailable',
  hasStorageAccess: true,
  ...p,
});

const store = (persistent: boolean) => ({ persistent }) as LibraryStorage;

describe('storage probe', () => {
  it('finds nothing usable in a cross-site frame whose storage is blocked, and the Storage Access API askable', async () => {
    expect(await probeStorage(blockedFrame())).toEqual({
      localStorage: false,
      indexedDB: false,
      caches: false,
      opfs: false,
      crossSite: true,
      storageAccess: 'prompt',
      hasStorageAccess: false,
    });
  });

  it('a frame of the same site is not cross-site; the API missing reads as unavailable', async () => {
    const p = await probeStorage(
      blockedFrame({
        location: { hostname: 'docs.example.org', ancestorOrigins: ['https://www.example.org'] },
        document: {},
      }),
    );
    expect(p.crossSite).toBe(false);
    expect(p.storageAccess).toBe('unavailable');
  });
});

describe('storage plan', () => {
  it('decides from the probe: own, partitioned, memory, or shared once a handle is granted', () => {
    expect(decideMode(probe({}), null)).toBe('own');
    expect(decideMode(probe({ crossSite: true, hasStorageAccess: false }), null)).toBe('partitioned');
    expect(decideMode(probe({ indexedDB: false, crossSite: true }), null)).toBe('memory');
    expect(decideMode(probe({ indexedDB: false, crossSite: true }), { indexedDB: {} as IDBFactory })).toBe('shared');
  });

  it('in a blocked frame: memory, the button offered, nothing asked until the click; a grant reloads into the shared library', async () => {
    let asked = 0;
    let reloaded = 0;
    const plan = createStoragePlan({
      probe: () => probeStorage(blockedFrame()),
      request: async () => (asked++, { indexedDB: {} as IDBFactory }),
      reload: () => void reloaded++,
      openIndexedDB: async () => store(true),
      openMemory: async () => store(false),
    });
    const s = await plan.ready();
    expect(s.mode).toBe('memory');
    expect(s.canAsk).toBe(true);
    expect(asked).toBe(0);
    expect((await plan.openStore('lib')).persistent).toBe(false);
    await plan.ask();
    expect([asked, reloaded]).toEqual([1, 1]);
  });

  it('a refusal keeps the page in memory and says so', async () => {
    let reloaded = 0;
    const plan = createStoragePlan({
      probe: () => probeStorage(blockedFrame()),
      request: async () => null,
      reload: () => void reloaded++,
      openMemory: async () => store(false),
    });
    await plan.ready();
    await plan.ask();
    expect(reloaded).toBe(0);
    expect(plan.get()).toMatchObject({ mode: 'memory', refused: true, asking: false });
    expect(storageNotice(plan.get(), 'rag.example.org')?.refused).toMatch(/did not allow/);
  });

  it('granted on an earlier visit: the handle is taken at start-up without a click and the library opens on it', async () => {
    const factory = {} as IDBFactory;
    let openedOn: IDBFactory | undefined;
    const plan = createStoragePlan({
      probe: () => probeStorage(blockedFrame({ permissions: { query: async () => ({ state: 'granted' }) } })),
      request: async () => ({ indexedDB: factory }),
      openIndexedDB: async (_n, f) => ((openedOn = f), store(true)),
      openMemory: async () => store(false),
    });
    expect((await plan.ready()).mode).toBe('shared');
    expect((await plan.openStore('lib')).persistent).toBe(true);
    expect(openedOn).toBe(factory);
    expect(storageNotice(plan.get(), 'rag.example.org')?.text).toMatch(
      /library, conversations, settings and models saved on rag\.example\.org/,
    );
  });

  it('in mode shared, the workers get ports to the granted storage, the inventory its caches, settings its localStorage', async () => {
    const caches = { tag: 'app site caches' } as unknown as CacheStorage;
    const localStorage = { tag: 'app site localStorage' } as unknown as Storage;
    const adopted: CacheStorage[] = [];
    const served: unknown[] = [];
    const plan = createStoragePlan({
      probe: () => probeStorage(blockedFrame({ permissions: { query: async () => ({ state: 'granted' }) } })),
      request: async () => ({ indexedDB: {} as IDBFactory, caches, localStorage }),
      serve: (saved) => (served.push(saved), { tag: 'port' } as unknown as MessagePort),
      adoptCaches: (c) => void adopted.push(c),
    });
    expect(await plan.modelCaches()).toBe(caches);
    const port = (await plan.savedStorage())!;
    expect(port()).toEqual({ tag: 'port' });
    expect(served).toEqual([{ indexedDB: {}, caches, localStorage }]);
    expect(adopted).toEqual([caches]);
    expect(plan.settingsStorage()).toBe(localStorage);
    // A blocked frame: nothing to relay, no caches to list, no settings storage.
    const blocked = createStoragePlan({ probe: () => probeStorage(blockedFrame()), pageCaches: () => caches });
    expect(await blocked.savedStorage()).toBeUndefined();
    expect(await blocked.modelCaches()).toBeUndefined();
    expect(blocked.settingsStorage()).toBeUndefined();
    // The page's own storage: its own caches.
    const own = createStoragePlan({ probe: async () => probe({}), pageCaches: () => caches });
    expect(await own.modelCaches()).toBe(caches);
    expect(await own.savedStorage()).toBeUndefined();
  });

  it('falls back to memory when the library database will not open although the probe did', async () => {
    const plan = createStoragePlan({
      probe: async () => probe({}),
      openIndexedDB: async () => {
        throw new Error('The user denied permission to access the database.');
      },
      openMemory: async () => store(false),
    });
    expect((await plan.openStore('lib')).persistent).toBe(false);
    expect(plan.get()).toMatchObject({
      mode: 'memory',
      fellBack: 'The user denied permission to access the database.',
    });
  });

  it('the notice says nothing on a visit with its own storage, and what is lost in memory', () => {
    const base = { probe: probe({ crossSite: true }), canAsk: true, asking: false, refused: false };
    expect(storageNotice({ ...base, mode: 'own' }, 'x')).toBeNull();
    const memory = storageNotice({ ...base, mode: 'memory' }, 'rag.example.org')!;
    expect(memory.tone).toBe('warn');
    expect(memory.text).toMatch(/nothing is kept after you leave/);
    // One notice for everything: the library, conversations, settings and models.
    expect(memory.text).toMatch(
      /library is in memory.*conversations and settings last until the page closes.*models download again on every visit/,
    );
    expect(memory.askLabel).toBe('Use the library and models saved on rag.example.org');
    expect(memory.openLink).toBe(true);
    // A private window's top-level page: no other tab would keep more, so no link and no button.
    const privateWindow = storageNotice(
      { ...base, probe: probe({ indexedDB: false }), canAsk: false, mode: 'memory' },
      'rag.example.org',
    )!;
    expect(privateWindow.text).toMatch(/gives this page no storage/);
    expect([privateWindow.openLink, privateWindow.askLabel]).toEqual([false, null]);
  });
});

describe('requestSavedStorage', () => {
  it('asks for IndexedDB, Cache Storage, localStorage and the OPFS directory, and keeps only the types the handle grants', async () => {
    const types: unknown[] = [];
    const idb = {} as IDBFactory;
    const handle = {
      indexedDB: idb,
      get caches(): CacheStorage {
        throw new DOMException('not granted', 'SecurityError');
      },
    };
    const got = await requestSavedStorage({ requestStorageAccess: async (t: unknown) => (types.push(t), handle) });
    expect(types).toEqual([{ indexedDB: true, caches: true, localStorage: true, getDirectory: true }]);
    expect(got).toEqual({ indexedDB: idb });
    expect(
      await requestSavedStorage({
        requestStorageAccess: async () => Promise.reject(new DOMException('no', 'NotAllowedError')),
      }),
    ).toBeNull();
    expect(await requestSavedStorage({})).toBeNull();
  });
});
