// Cache Storage through the relay, in the shape the engines call: web-llm's ArtifactCache
// (caches.open, cache.match/add/keys/delete) and transformers.js' custom cache (match, put with
// a progress callback). Keys are made absolute against this worker's address, as the worker's own
// Cache Storage would, so entries written here and on the app's own site are the same entries.
import * as Comlink from 'comlink';
import type { RelayedResponse } from '../../src/saved-storage/protocol';
import type { Relay } from './relay';

type Key = RequestInfo | URL;
type Progress = (p: { progress: number; loaded: number; total: number }) => void;

const base = () => (globalThis as { location?: { href: string } }).location?.href ?? 'http://localhost/';
export const keyOf = (req: Key): string =>
  new URL(typeof req === 'string' ? req : req instanceof URL ? req.href : req.url, base()).href;

/** Reads a body into one ArrayBuffer (sized once when the length is known), reporting bytes. */
async function bodyOf(res: Response, progress?: Progress): Promise<ArrayBuffer> {
  if (!progress || !res.body) return res.arrayBuffer();
  const total = Number(res.headers.get('content-length') ?? 0);
  const reader = res.body.getReader();
  let buf = new Uint8Array(total > 0 ? total : 1 << 20);
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (loaded + value.byteLength > buf.byteLength) {
      const grown = new Uint8Array(Math.max(buf.byteLength * 2, loaded + value.byteLength));
      grown.set(buf.subarray(0, loaded));
      buf = grown;
    }
    buf.set(value, loaded);
    loaded += value.byteLength;
    progress({ progress: total ? (loaded / total) * 100 : 0, loaded, total });
  }
  return loaded === buf.byteLength ? buf.buffer : buf.buffer.slice(0, loaded);
}

export async function toWire(res: Response, progress?: Progress): Promise<RelayedResponse> {
  const body = await bodyOf(res, progress);
  return Comlink.transfer({ body, status: res.status, statusText: res.statusText, headers: [...res.headers] }, [body]);
}

export const fromWire = (r: RelayedResponse): Response =>
  new Response(r.body, { status: r.status, statusText: r.statusText, headers: r.headers });

export class RelayedCache {
  constructor(
    private readonly relay: Relay,
    private readonly name: string,
  ) {}

  async match(req: Key): Promise<Response | undefined> {
    const r = await this.relay.match(this.name, keyOf(req));
    return r ? fromWire(r) : undefined;
  }

  async put(req: Key, res: Response, progress?: Progress): Promise<void> {
    await this.relay.put(this.name, keyOf(req), await toWire(res, progress));
  }

  /** As Cache.add: fetched here (the worker's network), stored there; a failed response is an error. */
  async add(req: Key): Promise<void> {
    const request = req instanceof Request ? req : new Request(req instanceof URL ? req.href : req);
    const res = await fetch(request);
    if (!res.ok) throw new TypeError(`Cache.add: ${res.status} ${res.statusText} for ${request.url}`);
    await this.put(request, res);
  }

  async addAll(reqs: Key[]): Promise<void> {
    for (const r of reqs) await this.add(r);
  }

  async keys(): Promise<Request[]> {
    return (await this.relay.keys(this.name)).map((u) => new Request(u));
  }

  delete(req: Key): Promise<boolean> {
    return this.relay.delete(this.name, keyOf(req));
  }
}

/** The CacheStorage calls the engines make, answered by the app site's caches. */
export function relayedCacheStorage(relay: Relay) {
  return {
    open: async (name: string) => new RelayedCache(relay, name),
    has: (name: string) => relay.hasCache(name),
    delete: (name: string) => relay.deleteCache(name),
    keys: () => relay.cacheNames(),
    async match(req: Key): Promise<Response | undefined> {
      for (const name of await relay.cacheNames()) {
        const r = await relay.match(name, keyOf(req));
        if (r) return fromWire(r);
      }
      return undefined;
    },
  };
}

export type RelayedCacheStorage = ReturnType<typeof relayedCacheStorage>;

/**
 * Makes the relay this worker's `caches`, for a library that reads the global (web-llm). The
 * worker's own Cache Storage throws SecurityError in a cross-site frame, so nothing is lost.
 */
export function installAsGlobalCaches(storage: RelayedCacheStorage): void {
  Object.defineProperty(globalThis, 'caches', { value: storage, configurable: true, writable: true });
}
