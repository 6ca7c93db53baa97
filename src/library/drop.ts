// What a drop holds, read during the drop event: the DataTransfer is emptied once the handler
// returns. Apart from folder.ts, so the first screen can take a drop and load the folder walker
// (with its image-header reader) only then.
export interface DroppedItems {
  entries: (FileSystemEntry | null)[];
  files: File[];
}

export function captureDrop(dt: DataTransfer): DroppedItems {
  return {
    entries: Array.from(dt.items ?? [])
      .filter((i) => i.kind === 'file')
      .map((i) => i.webkitGetAsEntry?.() ?? null),
    files: Array.from(dt.files ?? []),
  };
}
