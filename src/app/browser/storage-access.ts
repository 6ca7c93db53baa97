// The Storage Access API with the storage types the app needs: granted, it returns a handle
// whose IndexedDB, Cache Storage and localStorage are the app site's own (unpartitioned), the
// ones a visit to the app's own tab uses. Asked only on the visitor's click; once granted,
// the browser answers later requests without asking again.

export interface SavedStorage {
  indexedDB?: IDBFactory;
  caches?: CacheStorage;
  localStorage?: Storage;
}

type RequestStorageAccess = (types?: { indexedDB?: boolean; caches?: boolean; localStorage?: boolean }) => Promise<unknown>;

/** The handle's storages that actually work; null when the browser said no. */
export async function requestSavedStorage(doc: { requestStorageAccess?: unknown } = document): Promise<SavedStorage | null> {
  const request = doc.requestStorageAccess as RequestStorageAccess | undefined;
  if (typeof request !== 'function') return null;
  let handle: SavedStorage | undefined;
  try {
    handle = (await request.call(doc, { indexedDB: true, caches: true, localStorage: true })) as SavedStorage | undefined;
  } catch {
    return null;
  }
  if (!handle || typeof handle !== 'object') return null;
  const out: SavedStorage = {};
  // Each getter throws when its type was not granted.
  try {
    if (handle.indexedDB) out.indexedDB = handle.indexedDB;
  } catch {
    // not granted
  }
  try {
    if (handle.caches) out.caches = handle.caches;
  } catch {
    // not granted
  }
  try {
    if (handle.localStorage) out.localStorage = handle.localStorage;
  } catch {
    // not granted
  }
  return out;
}
