// A model worker's end of the saved-storage relay (src/app/browser/saved-storage-relay.ts): the
// page holds the Storage Access handle, the worker gets a port to it. Installed only when the page
// runs in mode `shared`; a kind the grant does not hold is reported once and left alone, so the
// engine goes on as in a frame without storage (downloads for this visit).
import * as Comlink from 'comlink';
import type { SavedStorageKinds, SavedStorageRelay } from '../../src/saved-storage/protocol';

export type Relay = Comlink.Remote<SavedStorageRelay>;

export interface ConnectedRelay {
  relay: Relay;
  kinds: SavedStorageKinds;
}

/** Connects to the page's relay; null (with a warning that says what it costs) when it does not answer. */
export async function connectRelay(port: MessagePort, who: string): Promise<ConnectedRelay | null> {
  const relay = Comlink.wrap<SavedStorageRelay>(port);
  try {
    const kinds = await relay.kinds();
    return { relay, kinds };
  } catch (e) {
    console.warn(`[${who}] the models saved on the app's site cannot be reached (${e instanceof Error ? e.message : String(e)}); models download for this visit only.`);
    return null;
  }
}

/** Says once why a kind of storage is not shared, and what that costs. */
export function notShared(who: string, reason: string): void {
  console.warn(`[${who}] models are not shared with the app's site: ${reason}. They download for this visit only.`);
}
