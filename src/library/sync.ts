// Tabs (and windows) on the same library database tell each other which document changed,
// so each tab's in-memory indexes follow IndexedDB. BroadcastChannel reaches same-origin
// tabs only, which is exactly who shares the database.

export interface LibrarySync {
  /** Tells the other tabs that this document was added, replaced or removed. */
  announce(docId: string): void;
  close(): void;
}

/** Listens for other tabs' changes; null where the runtime has no BroadcastChannel (Node). */
export function openSync(dbName: string, onChange: (docId: string) => void): LibrarySync | null {
  if (typeof BroadcastChannel !== 'function') return null;
  const channel = new BroadcastChannel(`selfrag-library:${dbName}`);
  channel.onmessage = (e: MessageEvent<unknown>) => {
    const docId = (e.data as { docId?: unknown } | null)?.docId;
    if (typeof docId === 'string') onChange(docId);
  };
  return {
    announce: (docId) => channel.postMessage({ docId }),
    close: () => channel.close(),
  };
}
