// A throwaway index over a handful of passages (the documents a question of an evaluation set
// brings with it), built with the library's own index host so it is searched exactly like the
// library: the same vector index, the same word index, the same fusion.
import { FlatIndex } from '../vector/flat-index';
import type { Embedder, Passage } from '../core/ports';
import { IndexHost, type IndexHandle } from '../library/index-host';
import { embeddingText } from '../library/ingest';

export async function inMemoryIndex(
  passages: readonly Passage[],
  embedder: Embedder,
  signal?: AbortSignal,
): Promise<IndexHandle> {
  const host = new IndexHost('flat', (_kind, dim) => new FlatIndex(dim));
  await host.add(
    passages.map((p) => p.id),
    await embedder.embed(passages.map(embeddingText), signal),
  );
  await host.addText(passages.map((p) => ({ id: p.id, text: embeddingText(p) })));
  return host;
}
