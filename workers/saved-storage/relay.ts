// A model worker's end of the saved-storage relay (src/app/browser/saved-storage-relay.ts): the
// page holds the Storage Access handle, the worker gets a port to it. Used only when the page
// runs in mode `shared`; a kind the grant does not hold is reported once and left alone, so the
// engine goes on as in a frame without storage (it downloads for this visit).
import * as Comlink from 'comlink';
import type { SavedStorageKinds, SavedStorageRelay } from '../../src/saved-storage/protocol';
import { relayedCacheStorage, type RelayedCacheStorage } from './cache-storage';
import { relayedWllamaBackend, type StorageBackendLike } from './opfs-backend';
import { errorMessage } from '../../src/core/errors';

export type Relay = Comlink.Remote<SavedStorageRelay>;

/** Connects to the page's relay; null (with a warning that says what it costs) when it does not answer. */
async function connect(port: MessagePort, who: string): Promise<{ relay: Relay; kinds: SavedStorageKinds } | null> {
  const relay = Comlink.wrap<SavedStorageRelay>(port);
  try {
    return { relay, kinds: await relay.kinds() };
  } catch (e) {
    notShared(who, `the page's relay did not answer (${errorMessage(e)})`);
    return null;
  }
}

function notShared(who: string, reason: string): void {
  console.warn(`[${who}] models are not shared with the app's site: ${reason}. They download for this visit only.`);
}

/** The app site's Cache Storage, or undefined (said why) when the grant does not hold it. */
export async function relayedCaches(port: MessagePort, who: string): Promise<RelayedCacheStorage | undefined> {
  const c = await connect(port, who);
  if (!c) return undefined;
  if (c.kinds.caches !== true) {
    notShared(who, c.kinds.caches);
    return undefined;
  }
  return relayedCacheStorage(c.relay);
}

/** wllama's file cache in the app site's OPFS, or undefined (said why) when the grant does not hold it. */
export async function relayedFiles(port: MessagePort, who: string): Promise<StorageBackendLike | undefined> {
  const c = await connect(port, who);
  if (!c) return undefined;
  if (c.kinds.files !== true) {
    notShared(who, c.kinds.files);
    return undefined;
  }
  return relayedWllamaBackend(c.relay);
}
