// The saved-storage relay end to end over a real MessageChannel: the page's side serving a
// Storage Access handle (in-memory Cache Storage and OPFS here), the workers' adapters on the
// other port, as web-llm, transformers.js and wllama call them.
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as Comlink from 'comlink';
import { CacheManager } from '@wllama/wllama/esm/index.js';
import type { SavedStorageRelay } from '../../../../src/saved-storage/protocol';
import { serveSavedStorage } from '../../../../src/app/browser/saved-storage-relay';
import { requestSavedStorage, type SavedStorage } from '../../../../src/app/browser/storage-access';
import { relayedCaches, relayedFiles } from '../../../../workers/saved-storage/relay';
import { toWire } from '../../../../workers/saved-storage/cache-storage';
import { MemoryCacheStorage, MemoryDirectory } from '../../../doubles/memory-storage';

const ports: MessagePort[] = [];
afterEach(() => {
  for (const p of ports.splice(0)) p.close();
  vi.restoreAllMocks();
});

function granted(extra: Partial<SavedStorage> = {}) {
  const caches = new MemoryCacheStorage();
  const root = new MemoryDirectory();
  const saved: SavedStorage = {
    caches: caches as unknown as CacheStorage,
    getDirectory: async () => root as unknown as FileSystemDirectoryHandle,
    ...extra,
  };
  const port = () => {
    const p = serveSavedStorage(saved);
    ports.push(p);
    return p;
  };
  return { caches, root, port };
}

const URL_A = 'https://app.example/models/tiny/embedder/onnx/model.onnx';

describe('saved-storage relay', () => {
  it('match, put, keys and delete reach the granted Cache Storage, under the same keys', async () => {
    const { caches, port } = granted();
    const storage = (await relayedCaches(port(), 'test'))!;
    const cache = await storage.open('transformers-cache');
    await cache.put(URL_A, new Response('weights', { headers: { 'content-type': 'application/octet-stream' } }));
    // Written where a visit to the app's own site reads it.
    const there = await (await caches.open('transformers-cache')).match(URL_A);
    expect(await there!.text()).toBe('weights');
    const back = await cache.match(new Request(URL_A));
    expect(await back!.text()).toBe('weights');
    expect(back!.headers.get('content-type')).toBe('application/octet-stream');
    expect((await cache.keys()).map((r) => r.url)).toEqual([URL_A]);
    expect(await storage.has('transformers-cache')).toBe(true);
    expect(await storage.keys()).toEqual(['transformers-cache']);
    expect(await cache.delete(URL_A)).toBe(true);
    expect(await cache.match(URL_A)).toBeUndefined();
    expect(await storage.delete('transformers-cache')).toBe(true);
    expect(await storage.has('transformers-cache')).toBe(false);
  });

  it('a missing entry is undefined, not an error', async () => {
    const { port } = granted();
    const cache = await (await relayedCaches(port(), 'test'))!.open('webllm/model');
    expect(await cache.match('https://app.example/nothing.bin')).toBeUndefined();
    expect(await (await relayedCaches(port(), 'test'))!.match('https://app.example/nothing.bin')).toBeUndefined();
  });

  it('a body of several MB arrives whole, and is moved (transferred), not copied', async () => {
    const { caches, port } = granted();
    const cache = await (await relayedCaches(port(), 'test'))!.open('webllm/model');
    const bytes = new Uint8Array(6 * 1024 * 1024 + 3);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + 7) & 0xff;
    const seen: number[] = [];
    const wire = await toWire(
      new Response(bytes.slice(), { headers: { 'content-length': String(bytes.length) } }),
      (p) => seen.push(p.loaded),
    );
    const sent = wire.body;
    expect(sent.byteLength).toBe(bytes.length);
    expect(seen.at(-1)).toBe(bytes.length);
    await cache.put('https://app.example/shard_0.bin', new Response(bytes.slice()));
    // A body already on the wire: once posted, the worker's buffer is detached (moved, not copied).
    await Comlink.wrap<SavedStorageRelay>(port()).put('webllm/model', 'https://app.example/shard_1.bin', wire);
    expect(sent.byteLength).toBe(0);
    for (const name of ['shard_0.bin', 'shard_1.bin']) {
      const stored = new Uint8Array(
        await (await (await caches.open('webllm/model')).match(`https://app.example/${name}`))!.arrayBuffer(),
      );
      expect(stored.length).toBe(bytes.length);
      expect(Buffer.compare(Buffer.from(stored), Buffer.from(bytes))).toBe(0);
    }
    const back = new Uint8Array(await (await cache.match('https://app.example/shard_1.bin'))!.arrayBuffer());
    expect(Buffer.compare(Buffer.from(back), Buffer.from(bytes))).toBe(0);
  });

  it('Cache.add fetches in the worker and stores there; a failed response is an error and stores nothing', async () => {
    const { caches, port } = granted();
    const cache = await (await relayedCaches(port(), 'test'))!.open('webllm/wasm');
    vi.stubGlobal('fetch', async (req: Request) =>
      req.url.endsWith('ok.wasm') ? new Response('wasm') : new Response('no', { status: 404, statusText: 'Not Found' }),
    );
    await cache.add('https://app.example/ok.wasm');
    expect(await (await (await caches.open('webllm/wasm')).match('https://app.example/ok.wasm'))!.text()).toBe('wasm');
    await expect(cache.add('https://app.example/missing.wasm')).rejects.toThrow(
      /404 Not Found for https:\/\/app.example\/missing.wasm/,
    );
    expect((await cache.keys()).length).toBe(1);
    vi.unstubAllGlobals();
  });

  it('a handle whose caches getter throws: no cache, a message that says so, no crash', async () => {
    const doc = {
      requestStorageAccess: async () => ({
        get caches(): CacheStorage {
          throw new DOMException('caches was not requested', 'SecurityError');
        },
        indexedDB: {} as IDBFactory,
        getDirectory: async () => new MemoryDirectory() as unknown as FileSystemDirectoryHandle,
      }),
    };
    const saved = (await requestSavedStorage(doc))!;
    expect(saved.caches).toBeUndefined();
    expect(saved.indexedDB).toBeDefined();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const port = serveSavedStorage(saved);
    ports.push(port);
    expect(await relayedCaches(port, 'evaluator')).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(
        /^\[evaluator\] models are not shared with the app's site: Cache Storage of the app's site was not granted.*download for this visit only/,
      ),
    );
    // Its files still are.
    const port2 = serveSavedStorage(saved);
    ports.push(port2);
    expect(await relayedFiles(port2, 'llama.cpp')).toBeDefined();
  });

  it("wllama keeps a GGUF in the app site's OPFS cache folder, as its own backend lays it out", async () => {
    const { root, port } = granted();
    const backend = (await relayedFiles(port(), 'llama.cpp'))!;
    const cm = new CacheManager([backend as never]);
    const url = 'https://app.example/models/tiny-gguf/chat.gguf';
    const name = await cm.getNameFromURL(url);
    const gguf = new Uint8Array(3 * 1024 * 1024).map((_, i) => i & 0xff);
    await cm.write(name, new Response(gguf).body!, { etag: 'x', originalSize: gguf.length, originalURL: url });
    // Where wllama's OPFSBackend on the app's own site looks: <root>/cache/<name>.
    const dir = await root.getDirectoryHandle('cache');
    expect((await (await dir.getFileHandle(name)).getFile()).size).toBe(gguf.length);
    const listed = await cm.list();
    expect(listed.map((e) => [e.name, e.size, e.metadata.originalURL])).toEqual([[name, gguf.length, url]]);
    const blob = (await cm.open(url))!;
    expect(Buffer.compare(Buffer.from(await blob.arrayBuffer()), Buffer.from(gguf))).toBe(0);
    expect(await cm.getSize(name)).toBe(gguf.length);
    await cm.deleteMany((e) => e.metadata.originalURL === url);
    expect(await cm.list()).toEqual([]);
    expect(await cm.open(url)).toBeNull();
  });

  it('without a directory in the grant, wllama is told why and keeps its own behaviour', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const port = serveSavedStorage({ caches: new MemoryCacheStorage() as unknown as CacheStorage });
    ports.push(port);
    expect(await relayedFiles(port, 'llama.cpp')).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(/\[llama\.cpp\] models are not shared.*file storage \(OPFS\).*not granted/),
    );
  });
});
