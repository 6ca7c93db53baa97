// The page's side of the saved-storage relay: serves the Storage Access handle's Cache Storage
// and OPFS directory (the app site's own) to a model worker over a MessagePort. The engines read
// their model caches inside workers, where the handle does not exist; with this, a granted frame
// reuses the models a visit to the app's own site downloaded, and what it downloads lands there.
import * as Comlink from 'comlink';
import { errorMessage } from '../../core/errors';
import type { SavedStorage } from './storage-access';
import {
  WLLAMA_CACHE_DIR,
  type RelayedResponse,
  type SavedStorageKinds,
  type SavedStorageRelay,
} from '../../saved-storage/protocol';

type Entries = { entries(): AsyncIterable<[string, FileSystemHandle]> };

const notGranted = (what: string) => `${what} of the app's site was not granted to this frame`;

export function savedStorageRelay(saved: SavedStorage): SavedStorageRelay {
  const caches = saved.caches;
  const needCaches = (): CacheStorage => {
    if (!caches) throw new Error(notGranted('Cache Storage'));
    return caches;
  };
  let folder: Promise<FileSystemDirectoryHandle> | undefined;
  const cacheDir = (): Promise<FileSystemDirectoryHandle> => {
    if (!saved.getDirectory) return Promise.reject(new Error(notGranted('The file storage (OPFS)')));
    folder ??= saved.getDirectory().then((root) => root.getDirectoryHandle(WLLAMA_CACHE_DIR, { create: true }));
    // A failure is not kept: the next call tries again.
    folder.catch(() => (folder = undefined));
    return folder;
  };
  const file = async (key: string): Promise<File | null> => {
    try {
      return await (await (await cacheDir()).getFileHandle(key)).getFile();
    } catch (e) {
      if ((e as Error)?.name === 'NotFoundError' || (e as Error)?.name === 'TypeError') return null;
      throw e;
    }
  };

  return {
    async kinds(): Promise<SavedStorageKinds> {
      let cachesOk: true | string = notGranted('Cache Storage');
      if (caches) {
        try {
          await caches.has('selfrag-probe');
          cachesOk = true;
        } catch (e) {
          cachesOk = `Cache Storage of the app's site did not open: ${errorMessage(e)}`;
        }
      }
      let files: true | string;
      try {
        await cacheDir();
        files = true;
      } catch (e) {
        files = saved.getDirectory
          ? `The file storage (OPFS) of the app's site did not open: ${errorMessage(e)}`
          : errorMessage(e);
      }
      return { caches: cachesOk, files };
    },
    cacheNames: async () => needCaches().keys(),
    hasCache: async (name) => needCaches().has(name),
    deleteCache: async (name) => needCaches().delete(name),
    async match(name, url) {
      const res = await (await needCaches().open(name)).match(url);
      if (!res) return undefined;
      const body = await res.arrayBuffer();
      const out: RelayedResponse = { body, status: res.status, statusText: res.statusText, headers: [...res.headers] };
      return Comlink.transfer(out, [body]);
    },
    async put(name, url, r) {
      await (await needCaches().open(name)).put(
        url,
        new Response(r.body, { status: r.status, statusText: r.statusText, headers: r.headers }),
      );
    },
    keys: async (name) => (await (await needCaches().open(name)).keys()).map((req) => req.url),
    delete: async (name, url) => (await needCaches().open(name)).delete(url),

    readFile: (key) => file(key),
    async writeFile(key, stream) {
      const handle = await (await cacheDir()).getFileHandle(key, { create: true });
      const writable = await handle.createWritable();
      await stream.pipeTo(writable);
    },
    fileSize: async (key) => (await file(key))?.size ?? -1,
    async listFiles() {
      const out: { key: string; size: number }[] = [];
      for await (const [name, h] of ((await cacheDir()) as unknown as Entries).entries()) {
        if (h.kind === 'file') out.push({ key: name, size: (await (h as FileSystemFileHandle).getFile()).size });
      }
      return out;
    },
    async deleteFile(key) {
      try {
        await (await cacheDir()).removeEntry(key);
      } catch (e) {
        if ((e as Error)?.name !== 'NotFoundError') throw e;
      }
    },
  };
}

/** A port a worker speaks the relay over; each worker gets its own. */
export function serveSavedStorage(saved: SavedStorage): MessagePort {
  const { port1, port2 } = new MessageChannel();
  Comlink.expose(savedStorageRelay(saved), port1);
  return port2;
}
