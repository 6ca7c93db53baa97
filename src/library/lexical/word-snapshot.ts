// The word index's persisted form: one binary buffer (no JSON string: at a million passages
// MiniSearch's JSON passed V8's ~512 MB string limit and could not be written at all).
// Little-endian, 4-byte aligned sections, so a loaded buffer is read through typed-array
// views and the postings are used in place, not parsed:
//   header (64 B): magic, version, tokenizer version, doc slots D, terms V, postings bytes P,
//                  id bytes, checksum of the body, mean passage length (f64), live count
//   term hashes u32[2V] · df u32[V] · last doc u32[V] · postings offsets u32[V+1]
//   passage lengths u32[D] · id starts u32[D+1] · postings u8[P] · ids (UTF-8, end to end)
// The checksum covers the whole body, so a truncated or damaged buffer is refused with a
// message instead of scoring garbage.
import { FNV_OFFSET, fnv1aStep } from '../../core/fnv1a';
import { TOKENIZER_VERSION } from './tokenize';

export const SNAPSHOT_FORMAT = 'words-1';
const MAGIC = 0x58575253; // 'SRWX'
const VERSION = 1;
const HEADER = 64;

export interface WordIndexParts {
  docCount: number;
  termCount: number;
  avgLen: number;
  hashes: Uint32Array;
  df: Uint32Array;
  last: Uint32Array;
  offsets: Uint32Array;
  docLen: Uint32Array;
  idBlob: Uint8Array;
  idStarts: Uint32Array;
  postings: Uint8Array;
}

export class SnapshotError extends Error {
  constructor(detail: string) {
    super(`The saved word index is damaged (${detail}); it is rebuilt from the stored passages`);
    this.name = 'SnapshotError';
  }
}

const pad4 = (n: number) => (n + 3) & ~3;

function layout(docCount: number, termCount: number, postingsBytes: number, idBytes: number) {
  const hashes = HEADER;
  const df = hashes + termCount * 8;
  const last = df + termCount * 4;
  const offsets = last + termCount * 4;
  const docLen = offsets + (termCount + 1) * 4;
  const idStarts = docLen + docCount * 4;
  const postings = idStarts + (docCount + 1) * 4;
  const ids = postings + pad4(postingsBytes);
  const total = ids + pad4(idBytes);
  return { hashes, df, last, offsets, docLen, idStarts, postings, ids, total };
}

/** FNV-1a over the body's words with a shift after each step, so every bit of a word reaches the low bits (saved snapshots carry it: keep it). */
function checksum(words: Uint32Array): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < words.length; i++) {
    h = fnv1aStep(h, words[i]!);
    h ^= h >>> 15;
  }
  return h >>> 0;
}

export function encodeWordIndex(p: WordIndexParts): Uint8Array<ArrayBuffer> {
  const idText = p.idBlob;
  const at = layout(p.docCount, p.termCount, p.postings.length, idText.length);
  const out = new Uint8Array(at.total);
  const u32 = (off: number, n: number) => new Uint32Array(out.buffer, off, n);
  u32(at.hashes, 2 * p.termCount).set(p.hashes.subarray(0, 2 * p.termCount));
  u32(at.df, p.termCount).set(p.df.subarray(0, p.termCount));
  u32(at.last, p.termCount).set(p.last.subarray(0, p.termCount));
  u32(at.offsets, p.termCount + 1).set(p.offsets.subarray(0, p.termCount + 1));
  u32(at.docLen, p.docCount).set(p.docLen.subarray(0, p.docCount));
  u32(at.idStarts, p.docCount + 1).set(p.idStarts.subarray(0, p.docCount + 1));
  out.set(p.postings, at.postings);
  out.set(idText, at.ids);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, VERSION, true);
  view.setUint32(8, TOKENIZER_VERSION, true);
  view.setUint32(12, p.docCount, true);
  view.setUint32(16, p.termCount, true);
  view.setUint32(20, p.postings.length, true);
  view.setUint32(24, idText.length, true);
  view.setFloat64(32, p.avgLen, true);
  view.setUint32(28, checksum(new Uint32Array(out.buffer, HEADER, (at.total - HEADER) / 4)), true);
  return out;
}

/** Null when the buffer was made by another tokenizer or format version (rebuild, nothing is wrong); throws SnapshotError when it is damaged. */
export function decodeWordIndex(input: Uint8Array): WordIndexParts | null {
  if (!(input instanceof Uint8Array)) throw new SnapshotError('not a byte buffer');
  if (input.length < HEADER) throw new SnapshotError(`${input.length} bytes, shorter than its header`);
  // Typed-array views need 4-byte alignment; a buffer read from a file may be a pooled slice.
  const bytes = input.byteOffset % 4 === 0 ? input : input.slice();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  if (view.getUint32(0, true) !== MAGIC) throw new SnapshotError('not a word index');
  if (view.getUint32(4, true) !== VERSION || view.getUint32(8, true) !== TOKENIZER_VERSION) return null;
  const docCount = view.getUint32(12, true);
  const termCount = view.getUint32(16, true);
  const postingsBytes = view.getUint32(20, true);
  const idBytes = view.getUint32(24, true);
  const at = layout(docCount, termCount, postingsBytes, idBytes);
  if (bytes.length !== at.total) throw new SnapshotError(`${bytes.length} bytes where its header promises ${at.total}`);
  const u32 = (off: number, n: number) => new Uint32Array(bytes.buffer, bytes.byteOffset + off, n);
  if (checksum(u32(HEADER, (at.total - HEADER) / 4)) !== view.getUint32(28, true))
    throw new SnapshotError('checksum mismatch');
  const offsets = u32(at.offsets, termCount + 1);
  const df = u32(at.df, termCount);
  const last = u32(at.last, termCount);
  if (offsets[0] !== 0 || offsets[termCount] !== postingsBytes)
    throw new SnapshotError('postings offsets out of range');
  for (let t = 0; t < termCount; t++) {
    if (offsets[t + 1]! < offsets[t]! || df[t] === 0 || last[t]! >= docCount)
      throw new SnapshotError(`term ${t} is inconsistent`);
  }
  const idStarts = u32(at.idStarts, docCount + 1);
  if (idStarts[0] !== 0 || idStarts[docCount] !== idBytes) throw new SnapshotError('passage ids do not add up');
  for (let i = 0; i < docCount; i++)
    if (idStarts[i + 1]! < idStarts[i]!) throw new SnapshotError('passage ids do not add up');
  return {
    docCount,
    termCount,
    avgLen: view.getFloat64(32, true),
    hashes: u32(at.hashes, 2 * termCount),
    df,
    last,
    offsets,
    docLen: u32(at.docLen, docCount),
    idBlob: bytes.subarray(at.ids, at.ids + idBytes),
    idStarts,
    postings: bytes.subarray(at.postings, at.postings + postingsBytes),
  };
}
