// The Storage Access API with the storage types the app needs: granted, it returns a handle
// whose IndexedDB, Cache Storage, OPFS directory and localStorage are the app site's own
// (unpartitioned), the ones a visit to the app's own tab uses. They exist only in the document:
// the model workers reach the caches through saved-storage-relay.ts. Asked only on the visitor's click; once granted,
// the browser answers later requests without asking again.

export interface SavedStorage {
  indexedDB?: IDBFactory;
  caches?: CacheStorage;
  localStorage?: Storage;
  /** The OPFS root of the app's site (wllama keeps its GGUF files there). */
  getDirectory?: () => Promise<FileSystemDirectoryHandle>;
}

type RequestStorageAccess = (types?: {
  indexedDB?: boolean;
  caches?: boolean;
  localStorage?: boolean;
  getDirectory?: boolean;
}) => Promise<unknown>;

/** The handle's storages that actually work; null when the browser said no. */
export async function requestSavedStorage(
  doc: { requestStorageAccess?: unknown } = document,
): Promise<SavedStorage | null> {
  const request = doc.requestStorageAccess as RequestStorageAccess | undefined;
  if (typeof request !== 'function') return null;
  let handle: SavedStorage | undefined;
  try {
    handle = (await request.call(doc, { indexedDB: true, caches: true, localStorage: true, getDirectory: true })) as
      | SavedStorage
      | undefined;
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
  // A method, not a getter: it rejects when its type was not granted.
  const getDirectory = (handle as { getDirectory?: unknown }).getDirectory;
  if (typeof getDirectory === 'function')
    out.getDirectory = () => (getDirectory as () => Promise<FileSystemDirectoryHandle>).call(handle);
  return out;
}
