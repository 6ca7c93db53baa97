// The compact index's saved state, so a library re-opens it without reading its float vectors:
//   codes  per row its 1-bit RaBitQ code and factor (code-rows.ts), row r at r × words × 4
//          (written in place, like the rows);
//   ids    an append-only log of "+id" / "-id" lines, replayed with the same row bookkeeping
//          the index uses (row-ids.ts), rewritten whole only when removals have doubled it;
//   head   centre, row count, committed log length and a checksum, written last.
// The int8 rows live in the index's RowStore. The checksum is a sum of one hash per row (id and
// code), so it follows adds and removes without a pass over the library; a crash between writes,
// a truncated file or a foreign file leaves a head that no longer matches, and the state is
// reported corrupt (the library rebuilds it once from its stored vectors).
import { fnv1aString, fnv1aWords } from '../core/fnv1a';
import type { ByteFile } from './byte-file';
import { removeRow, takeRow } from './row-ids';

export interface CompactFiles {
  codes: ByteFile;
  ids: ByteFile;
  head: ByteFile;
}

/** The saved state cannot be used: `stale` when it is intact but made for other vectors (model, format), else corrupt. */
export class CompactStateError extends Error {
  constructor(
    message: string,
    readonly stale = false,
  ) {
    super(message);
    this.name = 'CompactStateError';
  }
}

export interface CompactSnapshot {
  trained: boolean;
  centre: Float32Array;
  count: number;
  sum: number;
}

export interface LoadedCompact extends CompactSnapshot {
  dim: number;
  ids: string[];
  /** Row of each id. */
  rows: Map<string, number>;
  /** count × words u32, the codes (and factors) as saved. */
  codes: Uint32Array;
}

interface Head {
  v: number;
  dim: number;
  stamp: string;
  trained: boolean;
  centre: number[];
  count: number;
  logBytes: number;
  sum: number;
}

/** 2: RaBitQ codes with a factor a row, no spread; 1 (sign codes) is stale and rebuilt from the floats. */
const VERSION = 2;

/** FNV-1a over a row's id and code words. */
export function rowHash(id: string, codes: Uint32Array, offset: number, words: number): number {
  return fnv1aWords(codes, offset, words, fnv1aString(id)) >>> 0;
}

const enc = new TextEncoder();

function readAll(file: ByteFile, bytes = file.size()): Uint8Array {
  const out = new Uint8Array(bytes);
  if (bytes > 0 && file.read(0, out) !== bytes)
    throw new CompactStateError('a compact index file is shorter than its head says');
  return out;
}

export class CompactJournal {
  private logBytes = 0;
  /** Bytes the log would take written afresh ("+id\n" per live id): the log is rewritten when it is far longer. */
  private liveBytes = 0;

  constructor(
    private readonly files: CompactFiles,
    readonly dim: number,
    readonly words: number,
    /** What the vectors were made with (the embedding model): a state with another stamp is stale. */
    readonly stamp: string,
  ) {}

  /** Empties every file (the rows are the RowStore's). */
  reset(): void {
    this.files.codes.truncate(0);
    this.files.ids.truncate(0);
    this.logBytes = 0;
    this.liveBytes = 0;
  }

  /** Writes the code words of consecutive rows from `first`. */
  writeCodes(first: number, codes: Uint32Array): void {
    this.files.codes.write(first * this.words * 4, new Uint8Array(codes.buffer, codes.byteOffset, codes.byteLength));
  }

  /** Refuses ids the log cannot hold, before anything is changed. */
  static check(ids: readonly string[]): void {
    for (const id of ids)
      if (id.includes('\n')) throw new Error(`a passage id cannot contain a line break: ${JSON.stringify(id)}`);
  }

  added(ids: readonly string[]): void {
    if (ids.length === 0) return;
    this.append(ids.map((id) => `+${id}\n`).join(''));
    for (const id of ids) this.liveBytes += id.length + 2;
  }

  removed(ids: readonly string[]): void {
    if (ids.length === 0) return;
    this.append(ids.map((id) => `-${id}\n`).join(''));
    for (const id of ids) this.liveBytes -= id.length + 2;
  }

  /** Records the state as of now; `ids` (row order) lets a log mostly made of removals be rewritten short. */
  commit(s: CompactSnapshot, ids: readonly string[]): void {
    if (this.logBytes > 2 * this.liveBytes + (1 << 16)) {
      const text = enc.encode(ids.map((id) => `+${id}\n`).join(''));
      this.files.ids.write(0, text);
      this.files.ids.truncate(text.length);
      this.logBytes = text.length;
    }
    // No flush per change (an fsync each, 5–15 ms here): the writes reach the file at once, and a
    // state an OS crash left half-written fails its checks at the next open and is rebuilt.
    const head: Head = {
      v: VERSION,
      dim: this.dim,
      stamp: this.stamp,
      trained: s.trained,
      centre: Array.from(s.centre),
      count: s.count,
      logBytes: this.logBytes,
      sum: s.sum,
    };
    const bytes = enc.encode(JSON.stringify(head));
    this.files.head.write(0, bytes);
    this.files.head.truncate(bytes.length);
  }

  private append(text: string): void {
    const bytes = enc.encode(text);
    this.files.ids.write(this.logBytes, bytes);
    this.logBytes += bytes.length;
  }

  /**
   * Reads the saved state: null when there is none, a CompactStateError when it cannot be used.
   * `rowsHeld(dim)` is how many rows the RowStore holds (not checked when absent).
   */
  static load(
    files: CompactFiles,
    stamp: string,
    rowsHeld?: (dim: number) => number,
  ): { journal: CompactJournal; state: LoadedCompact } | null {
    if (files.head.size() === 0) return null;
    let head: Head;
    try {
      head = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(readAll(files.head))) as Head;
    } catch {
      throw new CompactStateError('its head is not readable');
    }
    if (typeof head !== 'object' || head === null) throw new CompactStateError('its head is not readable');
    if (head.v !== VERSION)
      throw new CompactStateError(`it was saved in format ${String(head.v)}, this page reads ${VERSION}`, true);
    if (head.stamp !== stamp) throw new CompactStateError('it was made from another embedding model’s vectors', true);
    const { dim, count, logBytes, sum } = head;
    const ints = [dim, count, logBytes, sum].every((x) => Number.isInteger(x) && x >= 0);
    if (
      !ints ||
      dim < 1 ||
      !Array.isArray(head.centre) ||
      head.centre.length !== dim ||
      typeof head.trained !== 'boolean'
    ) {
      throw new CompactStateError('its head is malformed');
    }
    // A row: its code's words, then its factor's (code-rows.ts).
    const words = Math.ceil(dim / 128) * 4 + 1;
    if (files.codes.size() < count * words * 4)
      throw new CompactStateError(
        `its codes file holds ${Math.floor(files.codes.size() / (words * 4))} of ${count} rows`,
      );
    const rows = rowsHeld?.(dim);
    if (rows !== undefined && rows < count) throw new CompactStateError(`its rows file holds ${rows} of ${count} rows`);
    if (files.ids.size() < logBytes) throw new CompactStateError('its id log is truncated');
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(readAll(files.ids, logBytes));
    } catch (e) {
      if (e instanceof CompactStateError) throw e;
      throw new CompactStateError('its id log is not readable');
    }
    const ids: string[] = [];
    const at = new Map<string, number>();
    let liveBytes = 0;
    let start = 0;
    for (let end = text.indexOf('\n'); end >= 0; start = end + 1, end = text.indexOf('\n', start)) {
      const op = text[start];
      const id = text.slice(start + 1, end);
      if (op === '+' && !at.has(id)) {
        takeRow(ids, at, id);
        liveBytes += id.length + 2;
      } else if (op === '-' && removeRow(ids, at, id, () => undefined)) {
        liveBytes -= id.length + 2;
      } else throw new CompactStateError('its id log does not replay');
    }
    if (start !== text.length || ids.length !== count)
      throw new CompactStateError(`its id log names ${ids.length} passages, its head ${count}`);
    const codeBytes = new Uint8Array(count * words * 4);
    if (count > 0 && files.codes.read(0, codeBytes) !== codeBytes.length)
      throw new CompactStateError('its codes file is truncated');
    const codes = new Uint32Array(codeBytes.buffer);
    let check = 0;
    for (let r = 0; r < count; r++) check = (check + rowHash(ids[r]!, codes, r * words, words)) >>> 0;
    if (check !== sum) throw new CompactStateError('its codes or ids do not match its checksum');
    const journal = new CompactJournal(files, dim, words, stamp);
    journal.logBytes = logBytes;
    journal.liveBytes = liveBytes;
    return {
      journal,
      state: {
        dim,
        ids,
        rows: at,
        codes,
        count,
        sum,
        trained: head.trained,
        centre: Float32Array.from(head.centre),
      },
    };
  }
}
