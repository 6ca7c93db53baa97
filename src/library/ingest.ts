// From raw bytes to a stored-ready document: parse, chunk, embed. Shared by the
// browser library and the Node indexer so both produce the same passages and vectors.
import { chunkText, type ChunkOptions } from '../core/chunk';
import { cyrb53 } from '../core/cyrb53';
import { locatePassage } from '../core/source-location';
import type { Embedder, Passage } from '../core/ports';
import {
  checkDeclaredSize,
  MAX_FILE_BYTES,
  parseDocument,
  RefusedFile,
  type ParseOptions,
  type ParsedDocument,
  type RawFile,
} from './parse';
import { errorMessage } from '../core/errors';

/** Passages embedded per embedder call: small enough for steady progress and prompt abort. */
export const EMBED_BATCH = 32;

export interface PreparedDocument {
  id: string;
  parsed: ParsedDocument;
  passages: Passage[];
}

/**
 * Content-addressed: adding the same text again replaces the document instead of
 * duplicating it (a 64-bit cyrb53 hash of the text).
 */
export async function documentId(text: string): Promise<string> {
  const h = new Uint32Array(2);
  cyrb53(text, h);
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  return `doc-${hex(h[1]!)}${hex(h[0]!)}`;
}

export async function prepare(parsed: ParsedDocument, chunk?: ChunkOptions): Promise<PreparedDocument> {
  const id = await documentId(parsed.text);
  // Every passage gets its place (an empty one for a text without pages or headings), so a
  // passage without one is known to come from a library made before places were recorded.
  const passages = chunkText({ docId: id, title: parsed.title, text: parsed.text }, chunk).map((p) => ({
    ...p,
    source: locatePassage(parsed.layout, p.start ?? 0, p.end ?? p.text.length),
  }));
  return { id, parsed, passages };
}

export async function prepareFile(
  file: RawFile,
  opts: ParseOptions & { chunk?: ChunkOptions } = {},
): Promise<PreparedDocument> {
  return prepare(await parseDocument(file, opts), opts.chunk);
}

/**
 * Where a passage stands, for a reader and for search: the headings above it (outermost first),
 * without those its document's title already says. An API reference names a function in a
 * heading and describes it below; the passage below must carry the name to be found by it.
 * Empty for a document without headings (a PDF, a plain text).
 */
export function headingContext(p: Pick<Passage, 'title' | 'source'>): string[] {
  const title = p.title.toLowerCase();
  return (p.source?.headings ?? []).filter((h) => !title.includes(h.toLowerCase()));
}

/**
 * What the word index and the embedder see of a passage: its document's title and heading path,
 * each on its own line, then the passage's text (which stays what a reader is shown).
 */
export function embeddingText(p: Passage): string {
  const path = headingContext(p);
  return path.length ? `${p.title}\n${path.join(' › ')}\n${p.text}` : `${p.title}\n${p.text}`;
}

export async function embedPassages(
  embedder: Embedder,
  passages: Passage[],
  opts: { signal?: AbortSignal; onBatch?: (done: number, total: number) => void } = {},
): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (let i = 0; i < passages.length; i += EMBED_BATCH) {
    opts.signal?.throwIfAborted();
    const batch = passages.slice(i, i + EMBED_BATCH);
    const vectors = await embedder.embed(batch.map(embeddingText), opts.signal);
    if (vectors.length !== batch.length)
      throw new Error(`the embedder returned ${vectors.length} vectors for ${batch.length} passages`);
    out.push(...vectors);
    opts.onBatch?.(out.length, passages.length);
  }
  return out;
}

/**
 * A file found in a folder, named by its path there. Wrapping the File itself
 * (new File([f], path)) costs the main thread milliseconds per file; this costs nothing
 * and still crosses to the worker by structured clone.
 */
export interface NamedBlob {
  name: string;
  blob: Blob;
}

/** A browser File, a File with a path for its name, or the same thing from Node (name, type, bytes). */
export type FileLike =
  | RawFile
  | NamedBlob
  | { name: string; type?: string; size?: number; arrayBuffer(): Promise<ArrayBuffer> };

/** Size without reading: File.size, or the byte length already in hand. */
export function sizeOf(file: FileLike): number | undefined {
  if ('bytes' in file && file.bytes instanceof Uint8Array) return file.bytes.length;
  if ('blob' in file) return file.blob.size;
  return 'size' in file && typeof file.size === 'number' ? file.size : undefined;
}

// A browser File has a `bytes()` method in recent engines, so test the value, not the key.
async function toRaw(file: FileLike): Promise<RawFile> {
  if ('bytes' in file && file.bytes instanceof Uint8Array) return file as RawFile;
  if ('blob' in file)
    return {
      name: file.name,
      bytes: new Uint8Array(await file.blob.arrayBuffer()),
      ...(file.blob.type ? { type: file.blob.type } : {}),
    };
  const f = file as { name: string; type?: string; arrayBuffer(): Promise<ArrayBuffer> };
  return { name: f.name, bytes: new Uint8Array(await f.arrayBuffer()), ...(f.type ? { type: f.type } : {}) };
}

export type PrepareOptions = ParseOptions & { chunk?: ChunkOptions; title?: string };

/** A prepared document, or the reason it was refused in words a user can act on. */
export type PrepareOutcome = { ok: true; doc: PreparedDocument; bytes: number } | { ok: false; reason: string };

/**
 * Reads, parses and chunks one file. The size is checked before reading, so a
 * huge file is refused without being loaded. Runs in the library worker in the
 * browser and in-process in Node.
 */
export async function readAndPrepare(file: FileLike, opts: PrepareOptions = {}): Promise<PrepareOutcome> {
  try {
    const declared = sizeOf(file);
    if (declared !== undefined) checkDeclaredSize(file.name, declared, opts.maxBytes ?? MAX_FILE_BYTES);
    const raw = await toRaw(file);
    const parsed = await parseDocument(raw, opts);
    if (opts.title) parsed.title = opts.title;
    return { ok: true, doc: await prepare(parsed, opts.chunk), bytes: raw.bytes.length };
  } catch (e) {
    if (e instanceof RefusedFile) return { ok: false, reason: e.reason };
    // A parser bug or a file that trips one: the batch goes on, the file is named.
    return { ok: false, reason: `it could not be read (${errorMessage(e)})` };
  }
}

/** Passages that could be embedded with their vectors, and what was dropped and why. */
export interface EmbeddedDocument {
  passages: Passage[];
  vectors: Float32Array[];
  dropped: number;
  /** Why the first dropped passage was dropped. */
  reason?: string;
}

function badVector(v: Float32Array | undefined): string | null {
  if (!v || v.length === 0) return 'the embedder returned no vector';
  let norm = 0;
  for (const x of v) norm += x * x;
  // A zero vector normalised by the model's pipeline comes back as NaN: the same case as a zero vector.
  if (!Number.isFinite(norm))
    return 'the embedder returned an unusable vector (not finite: usually a zero vector, when it recognised no word in the passage)';
  if (norm === 0) return 'the embedder returned a zero vector (it recognised no word in the passage)';
  return null;
}

/**
 * Embeds a document's passages, dropping (and counting) the ones that cannot be
 * embedded instead of losing the whole document: a zero or non-finite vector, or
 * a passage the embedder throws on (found by retrying a failed batch one passage
 * at a time). Aborts still stop at once.
 */
export async function embedDocument(
  embedder: Embedder,
  passages: Passage[],
  opts: { signal?: AbortSignal; onBatch?: (done: number, total: number) => void } = {},
): Promise<EmbeddedDocument> {
  const out: EmbeddedDocument = { passages: [], vectors: [], dropped: 0 };
  const drop = (why: string) => {
    out.dropped++;
    out.reason ??= why;
  };
  const take = (p: Passage, v: Float32Array | undefined) => {
    const why = badVector(v);
    if (why) drop(why);
    else {
      out.passages.push(p);
      out.vectors.push(v!);
    }
  };
  for (let i = 0; i < passages.length; i += EMBED_BATCH) {
    opts.signal?.throwIfAborted();
    const batch = passages.slice(i, i + EMBED_BATCH);
    let vectors: Float32Array[] | null = null;
    try {
      vectors = await embedder.embed(batch.map(embeddingText), opts.signal);
      if (vectors.length !== batch.length) vectors = null;
    } catch (e) {
      if (opts.signal?.aborted) throw e;
    }
    if (vectors) batch.forEach((p, k) => take(p, vectors[k]));
    else {
      for (const p of batch) {
        opts.signal?.throwIfAborted();
        try {
          const [v] = await embedder.embed([embeddingText(p)], opts.signal);
          take(p, v);
        } catch (e) {
          if (opts.signal?.aborted) throw e;
          drop(errorMessage(e));
        }
      }
    }
    opts.onBatch?.(Math.min(i + EMBED_BATCH, passages.length), passages.length);
  }
  return out;
}
