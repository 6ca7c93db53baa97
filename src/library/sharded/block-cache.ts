// Where fetched blocks of a sharded corpus are kept, keyed by URL and byte range: Cache
// Storage in the page (it outlives the tab and serves offline visits), memory elsewhere.
// Only blocks that passed their hash check are put here.

export interface BlockCache {
  get(key: string): Promise<Uint8Array | undefined>;
  put(key: string, bytes: Uint8Array): Promise<void>;
}

export class MemoryBlockCache implements BlockCache {
  private readonly map = new Map<string, Uint8Array>();
  async get(key: string): Promise<Uint8Array | undefined> {
    return this.map.get(key);
  }
  async put(key: string, bytes: Uint8Array): Promise<void> {
    this.map.set(key, bytes);
  }
}

/** Cache Storage, when the page has it (secure contexts); the memory cache otherwise. */
export async function openBlockCache(name = 'selfrag-sharded-v1'): Promise<BlockCache> {
  const storage = (globalThis as { caches?: CacheStorage }).caches;
  if (!storage) return new MemoryBlockCache();
  try {
    const cache = await storage.open(name);
    // A range is not part of a cache key, so it goes into the URL's fragment-free query.
    const request = (key: string) => new Request(key.replace('#', key.includes('?') ? '&' : '?'));
    return {
      async get(key) {
        const res = await cache.match(request(key));
        return res ? new Uint8Array(await res.arrayBuffer()) : undefined;
      },
      async put(key, bytes) {
        await cache.put(request(key), new Response(bytes as Uint8Array<ArrayBuffer>)).catch(() => undefined);
      },
    };
  } catch {
    return new MemoryBlockCache();
  }
}
