// Stored vectors belong to the embedding model that made them (recorded per document). Opening the
// library never embeds: a document whose vectors another model made is opened with its text and
// word index, found by words, and left out of the vector search (so two models' vectors never meet
// in one index); it is embedded again afterwards, in the background, one whole document at a time,
// and only while the page's embedding model runs. One that cannot run (offline, a model that does
// not load) leaves the library as it was.
import type { Catalog } from './catalog';
import { embedDocument } from './ingest';
import { sameModel } from './prebuilt';
import type { LibraryStorage, StoredDocument } from './store';
import type { LibraryOptions } from './types';

/** The model of documents stored before each recorded its own: the library's one model then. */
const EMBEDDER = 'embedder';

/** Which stored documents' vectors belong to `embedderId` (all of them when the page names no model). */
export async function vectorsFit(
  store: LibraryStorage,
  embedderId: string | undefined,
): Promise<(doc: Pick<StoredDocument, 'embedder'>) => boolean> {
  let before = await store.getMeta<string>(EMBEDDER);
  if (embedderId && !before) {
    // The first model this library met: the one every document without a record of its own was made with.
    await store.setMeta(EMBEDDER, embedderId);
    before = embedderId;
  }
  if (!embedderId) return () => true;
  return (doc) => {
    const made = doc.embedder ?? before;
    return !made || sameModel(made, embedderId);
  };
}

/**
 * Embeds again, with the page's model, the documents another model embedded. Each document is
 * written whole (its vectors and their model in one transaction) before the next starts; one with a
 * passage the model cannot embed is left as it is, found by words. Stops at
 * the first document the model cannot embed at all: it does not run here now, and the rest would
 * fail the same way. Returns how many documents were embedded.
 */
export async function reembedStale(catalog: Catalog, opts: Pick<LibraryOptions, 'embedder'>): Promise<number> {
  let done = 0;
  for (const d of await catalog.stale()) {
    const passages = await catalog.store.passagesOf(d.id);
    const embedded = await embedDocument(opts.embedder, passages);
    if (embedded.passages.length === 0) break;
    // All or nothing: a passage the model cannot embed would leave the word index too; the document stays found by words.
    if (embedded.dropped > 0) continue;
    const { name, title, format, text, ocr, layout } = d;
    await catalog.put(
      {
        id: d.id,
        parsed: { name, title, format, text, ...(ocr ? { ocr } : {}), ...(layout ? { layout } : {}) },
        passages: embedded.passages,
      },
      embedded.vectors,
      d.origin,
      d.bytes !== undefined ? { bytes: d.bytes } : {},
    );
    done++;
  }
  return done;
}
