// From raw bytes to a stored-ready document: parse, chunk, embed. Shared by the
// browser library and the Node indexer so both produce the same passages and vectors.
import { chunkText, type ChunkOptions } from '../core/chunk';
import type { Embedder, Passage } from '../core/ports';
import { parseDocument, type ParseOptions, type ParsedDocument, type RawFile } from './parse';

/** Passages embedded per embedder call: small enough for steady progress and prompt abort. */
export const EMBED_BATCH = 32;

export interface PreparedDocument {
  id: string;
  parsed: ParsedDocument;
  passages: Passage[];
}

/**
 * Content-addressed: adding the same text again replaces the document instead of
 * duplicating it. A 64-bit cyrb53-style hash in plain JavaScript rather than
 * crypto.subtle, which pages served over plain http (a LAN demo) do not have.
 */
export async function documentId(text: string): Promise<string> {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
  return `doc-${hex(h2)}${hex(h1)}`;
}

export async function prepare(parsed: ParsedDocument, chunk?: ChunkOptions): Promise<PreparedDocument> {
  const id = await documentId(parsed.text);
  return { id, parsed, passages: chunkText({ docId: id, title: parsed.title, text: parsed.text }, chunk) };
}

export async function prepareFile(file: RawFile, opts: ParseOptions & { chunk?: ChunkOptions } = {}): Promise<PreparedDocument> {
  return prepare(await parseDocument(file, opts), opts.chunk);
}

/** What gets embedded for a passage: the title gives a passage from the middle of a document its topic. */
export function embeddingText(p: Passage): string {
  return `${p.title}\n${p.text}`;
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
    if (vectors.length !== batch.length) throw new Error(`the embedder returned ${vectors.length} vectors for ${batch.length} passages`);
    out.push(...vectors);
    opts.onBatch?.(out.length, passages.length);
  }
  return out;
}
