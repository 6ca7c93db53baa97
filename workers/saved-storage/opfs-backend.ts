// wllama's storage backend through the relay: the same files, under the same names
// (`getNameFromURL`) in the same `cache` folder of the app site's OPFS as wllama's own OPFSBackend
// writes on the app's own site, so a GGUF downloaded there loads here without a download, and
// one downloaded here is found there. A read is a Blob of the file (not copied); a write is the
// download stream, transferred.
import * as Comlink from 'comlink';
import type { Relay } from './relay';

/** wllama 3.8's StorageBackend (esm/storage/index.d.ts), which its CacheManager takes. */
export interface StorageBackendLike {
  isSupported(): boolean;
  read(key: string): Promise<Blob | null>;
  write(key: string, stream: ReadableStream): Promise<void>;
  getSize(key: string): Promise<number>;
  list(): Promise<{ key: string; size: number }[]>;
  delete(key: string): Promise<void>;
}

export function relayedWllamaBackend(relay: Relay): StorageBackendLike {
  return {
    isSupported: () => true,
    read: (key) => relay.readFile(key),
    write: (key, stream) => relay.writeFile(key, Comlink.transfer(stream, [stream as unknown as Transferable])),
    getSize: (key) => relay.fileSize(key),
    list: () => relay.listFiles(),
    delete: (key) => relay.deleteFile(key),
  };
}
