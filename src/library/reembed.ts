// Stored vectors belong to the embedding model that made them: when the page opens the library
// with another model, every document is embedded again before the index is built, so questions
// and passages are compared in one vector space.
import { embedPassages } from './ingest';
import { sameModel } from './prebuilt';
import type { LibraryStorage } from './store';
import type { LibraryOptions } from './types';

const EMBEDDER = 'embedder';

/** Re-embeds the library if the stored model differs from `embedderId`, then remembers `embedderId`. */
export async function followEmbedder(
  store: LibraryStorage,
  opts: Pick<LibraryOptions, 'embedder' | 'embedderId' | 'onProgress'>,
): Promise<void> {
  const stored = await store.getMeta<string>(EMBEDDER);
  const id = opts.embedderId;
  if (id && stored && !sameModel(stored, id)) await reembedAll(store, opts);
  if (id) await store.setMeta(EMBEDDER, id);
}

async function reembedAll(store: LibraryStorage, opts: Pick<LibraryOptions, 'embedder' | 'onProgress'>): Promise<void> {
  const docs = await store.listDocuments();
  for (const [fileIndex, d] of docs.entries()) {
    const passages = await store.passagesOf(d.id);
    opts.onProgress?.({
      name: d.name,
      fileIndex,
      fileCount: docs.length,
      stage: 'embedding',
      passagesDone: 0,
      passagesTotal: passages.length,
    });
    const vectors = await embedPassages(opts.embedder, passages);
    await store.putDocument(d, passages, vectors);
    opts.onProgress?.({
      name: d.name,
      fileIndex,
      fileCount: docs.length,
      stage: 'added',
      passagesDone: passages.length,
      passagesTotal: passages.length,
    });
  }
}
