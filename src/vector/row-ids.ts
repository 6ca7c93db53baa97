// Which row holds which id, for the indexes that keep their rows contiguous (flat, compact):
// a new id takes the next row; a removed id's row is filled by the last row, whose data the
// caller moves, so a scan never meets a hole.

/** The row of `id`, taking the next free one for a new id. */
export function takeRow(ids: string[], rows: Map<string, number>, id: string): number {
  let r = rows.get(id);
  if (r === undefined) {
    r = ids.length;
    ids.push(id);
    rows.set(id, r);
  }
  return r;
}

/** Frees `id`'s row, calling `move(from, to)` when the last row must fill it; false for an unknown id. */
export function removeRow(
  ids: string[],
  rows: Map<string, number>,
  id: string,
  move: (from: number, to: number) => void,
): boolean {
  const r = rows.get(id);
  if (r === undefined) return false;
  const last = ids.length - 1;
  const lastId = ids[last]!;
  if (r !== last) {
    move(last, r);
    ids[r] = lastId;
    rows.set(lastId, r);
  }
  ids.pop();
  rows.delete(id);
  return true;
}
