// The word (BM25) index's life beside IndexedDB: loaded from its saved snapshot at start-up and
// reconciled with the stored passages, saved again after each change, and taken whole from a
// pre-built library. It lives in the index worker; only snapshots travel.
import type { Passage } from '../core/ports';
import type { IndexHandle } from './index-host';
import { embeddingText } from './ingest';
import type { LexicalSnapshot } from './lexical/lexical-index';
import type { LibraryStorage } from './store';
import { errorMessage } from '../core/errors';

const LEXICAL_UNSAVED = 'The word index could not be saved (it is rebuilt next time)';
/** Passages read from IndexedDB and tokenised per round trip when the snapshot lacks some. */
const RECONCILE_BATCH = 512;

/**
 * Loads the persisted word index and brings it in line with the stored passages (`ids`): only
 * passages it lacks are tokenised (none, normally), and passages gone from the library are
 * dropped. A snapshot from another tokenizer or format version (MiniSearch's JSON before the
 * binary index), or a damaged one, is rebuilt once from the stored passages.
 */
export async function openWordIndex(store: LibraryStorage, index: IndexHandle, ids: string[]): Promise<void> {
  const snap = await store.getLexical();
  if (snap) await index.loadLexical(snap).catch(() => false);
  const missing = await index.reconcileLexical(ids);
  for (let i = 0; i < missing.length; i += RECONCILE_BATCH) {
    const batch = (await store.getPassages(missing.slice(i, i + RECONCILE_BATCH))).filter((p): p is Passage => !!p);
    await index.addText(batch.map((p) => ({ id: p.id, text: embeddingText(p) })));
  }
}

/** Saves the word index if it changed; a failure becomes one warning (the index in memory still serves). */
export async function saveWordIndex(store: LibraryStorage, index: IndexHandle, warnings: string[]): Promise<void> {
  try {
    const snap = await index.lexicalSnapshot();
    if (snap) await store.putLexical(snap);
  } catch (e) {
    // The next start-up reconciles what was not saved.
    if (!warnings.some((w) => w.startsWith(LEXICAL_UNSAVED))) warnings.push(`${LEXICAL_UNSAVED}: ${errorMessage(e)}`);
  }
}

/**
 * The site's word index, tokenised at build time: loaded whole into an empty index (and saved),
 * so the pre-built passages are found already indexed and nothing is tokenised in the browser.
 * A damaged or outdated one is passed over: the passages are tokenised here instead.
 */
export async function adoptWordIndex(store: LibraryStorage, index: IndexHandle, snap: LexicalSnapshot): Promise<void> {
  if ((await index.lexicalSize()) === 0 && (await index.loadLexical(snap).catch(() => false)))
    await store.putLexical(snap);
}
