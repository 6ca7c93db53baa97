// What the site ships fills an empty library on first visit: its pre-built index when there is
// one (vectors and word index made at build time, so nothing is embedded or tokenised in the
// browser unless the embedding model differs: then after opening), else the sample documents, added like a user's.
// A library first filled from the pre-built index follows it when the site rebuilds it.
import type { Catalog } from './catalog';
import { ingestBatch, ingestDocument, type BatchOptions } from './ingest-batch';
import type { RawFile } from './parse';
import { fetchPrebuiltVersion, loadPrebuilt, PREBUILT_DIR, sameModel, type PrebuiltLibrary } from './prebuilt';
import type { LibraryOptions } from './types';
import { adoptWordIndex } from './word-index-store';
import { errorMessage } from '../core/errors';

const SEEDED = 'seeded';
const PREBUILT_AT = 'prebuiltCreatedAt';

export type SeedOptions = BatchOptions & Pick<LibraryOptions, 'baseUrl' | 'fetch' | 'embedderId'>;

/**
 * Seeds an empty library once (remembered, so a user who removes the sample does not get it
 * back on reload), or on later visits follows a rebuilt pre-built index. Problems become
 * warnings: an empty library still works, and the next visit tries again.
 */
export async function seedLibrary(catalog: Catalog, opts: SeedOptions, warnings: string[]): Promise<void> {
  const { store } = catalog;
  if (!(await store.getMeta<boolean>(SEEDED))) {
    try {
      if ((await store.listDocuments()).length === 0) await seedFirstVisit(catalog, opts);
      await store.setMeta(SEEDED, true);
    } catch (e) {
      warnings.push(`Could not load the starter library: ${errorMessage(e)}`);
    }
  } else {
    await followPrebuilt(catalog, opts).catch((e: unknown) => {
      warnings.push(`Could not update the site's library: ${errorMessage(e)}`);
    });
  }
}

const fetchOf = (opts: SeedOptions): typeof fetch => opts.fetch ?? globalThis.fetch.bind(globalThis);

async function seedFirstVisit(catalog: Catalog, opts: SeedOptions): Promise<void> {
  const base = opts.baseUrl;
  if (!base) return;
  const fetchFn = fetchOf(opts);
  const prebuilt = await loadPrebuilt(new URL(PREBUILT_DIR, base).href, fetchFn);
  if (prebuilt) {
    await importPrebuilt(catalog, opts, prebuilt);
    await catalog.store.setMeta(PREBUILT_AT, prebuilt.createdAt);
    return;
  }
  await loadSample(catalog, opts, new URL('sample/', base).href, fetchFn);
}

/** The site's pre-built documents are replaced by its rebuilt ones; the user's own are kept. */
async function followPrebuilt(catalog: Catalog, opts: SeedOptions): Promise<void> {
  const base = opts.baseUrl;
  const had = await catalog.store.getMeta<string>(PREBUILT_AT);
  if (!base || had === undefined) return;
  const fetchFn = fetchOf(opts);
  const dir = new URL(PREBUILT_DIR, base).href;
  const now = await fetchPrebuiltVersion(dir, fetchFn);
  if (now === null || now === had) return;
  const prebuilt = await loadPrebuilt(dir, fetchFn);
  if (!prebuilt) return;
  const keep = new Set(prebuilt.documents.map((d) => d.id));
  for (const d of await catalog.store.listDocuments()) {
    if (d.origin !== 'prebuilt' || keep.has(d.id)) continue;
    // Every tab runs this on its next start-up, so other tabs are not told.
    await catalog.remove(d.id, { announce: false });
  }
  await importPrebuilt(catalog, opts, prebuilt);
  await catalog.store.setMeta(PREBUILT_AT, prebuilt.createdAt);
}

async function importPrebuilt(catalog: Catalog, opts: SeedOptions, lib: PrebuiltLibrary): Promise<void> {
  if (lib.lexical) await adoptWordIndex(catalog.store, catalog.index, lib.lexical);
  // A pre-built index big enough for the compact vector index goes straight into it ('auto').
  await catalog.index.expect((await catalog.index.size()) + lib.passages.length);
  // Vectors from another embedding model would not match the questions' vectors: the documents are
  // kept by their words, waiting for vectors, and embedded after opening (Library.open), never during it.
  const reuse = !opts.embedderId || !lib.model || sameModel(lib.model, opts.embedderId);
  for (const [fileIndex, d] of lib.documents.entries()) {
    const passages = lib.passages.filter((p) => p.docId === d.id);
    const vectors = reuse
      ? passages.map((p) => lib.vectors.get(p.id)).filter((v): v is Float32Array => !!v)
      : undefined;
    opts.onProgress?.({ name: d.name, fileIndex, fileCount: lib.documents.length, stage: 'saving' });
    const prepared = { id: d.id, parsed: d, passages };
    const doc =
      vectors?.length === passages.length
        ? (await ingestDocument(catalog, opts.embedder, prepared, 'prebuilt', { vectors })).doc
        : await catalog.put(prepared, [], 'prebuilt', { pendingEmbedding: passages.length > 0 });
    const count = doc?.passageCount ?? 0;
    opts.onProgress?.({
      name: d.name,
      fileIndex,
      fileCount: lib.documents.length,
      stage: 'added',
      passagesDone: count,
      passagesTotal: count,
    });
  }
}

async function loadSample(catalog: Catalog, opts: SeedOptions, dir: string, fetchFn: typeof fetch): Promise<void> {
  const res = await fetchFn(new URL('manifest.json', dir).href).catch(() => null);
  if (!res?.ok) return;
  const manifest = (await res.json()) as { documents?: Array<{ file: string; type?: string }> };
  const files: RawFile[] = [];
  for (const { file, type } of manifest.documents ?? []) {
    const r = await fetchFn(new URL(file, dir).href);
    if (r.ok) files.push({ name: file, bytes: new Uint8Array(await r.arrayBuffer()), ...(type ? { type } : {}) });
  }
  await ingestBatch(catalog, opts, files, { origin: 'sample' });
}
