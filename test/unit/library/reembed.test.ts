// A library opened with another embedding model than the one that made its vectors: it opens at
// once with its documents found by words, re-embeds in the background only while the model runs,
// and never searches two models' vectors in one index.
import { describe, expect, it } from 'vitest';
import type { Embedder } from '../../../src/core/ports';
import { FlatIndex } from '../../../src/vector/flat-index';
import { IndexHost } from '../../../src/library/index-host';
import { HashEmbedder } from '../../doubles/hash-embedder';
import { BEES, TIDES, freshDb, library } from './open-library';

/** An embedding model that cannot run here (offline, a model that does not load), or fails on texts with `word`. */
class FailingEmbedder implements Embedder {
  calls = 0;
  private readonly ok = new HashEmbedder(32);
  constructor(private readonly word?: string) {}
  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    this.calls++;
    if (!this.word || texts.some((t) => t.toLowerCase().includes(this.word!)))
      throw new Error('Could not load the embedding model');
    return this.ok.embed(texts, signal);
  }
}

/**
 * The in-process index, which after each change it is asked to make looks for the bees passage by
 * its words: what a question asked at that moment (a message between two of the library's) would find.
 */
class WatchedIndex extends IndexHost {
  /** After each change: whether 'waggle dance' found a passage. */
  seen: { after: string; found: boolean }[] = [];
  constructor() {
    super('flat', (_k, dim) => new FlatIndex(dim));
  }
  private async look(after: string): Promise<void> {
    const hits = await this.hybrid({ vector: null, text: 'waggle dance', mode: 'words', limit: 5 });
    this.seen.push({ after, found: hits.length > 0 });
  }
  override async remove(ids: string[]): Promise<number> {
    const n = await super.remove(ids);
    await this.look('remove');
    return n;
  }
  override async add(ids: string[], vectors: Float32Array[]): Promise<void> {
    await super.add(ids, vectors);
    await this.look('add');
  }
  override async replace(...args: Parameters<IndexHost['replace']>): Promise<number> {
    const n = await super.replace(...args);
    await this.look('replace');
    return n;
  }
}

async function storedWith(embedderId: string): Promise<string> {
  const dbName = freshDb('model');
  const a = await library({ dbName, embedderId });
  await a.addFiles([BEES, TIDES]);
  a.close();
  return dbName;
}

describe('a library opened with another embedding model', () => {
  it('opens without embedding, then re-embeds its documents in the background', async () => {
    const dbName = await storedWith('model-a');
    const embedder = new HashEmbedder(32);
    const b = await library({ dbName, embedderId: 'model-b', embedder });
    await b.idle();
    expect(embedder.texts).toHaveLength(2);
    expect((await b.list()).some((d) => d.pendingEmbedding)).toBe(false);
    expect(await b.size()).toBe(2);
    expect((await b.retriever.retrieve('waggle dance', 1))[0]!.title).toBe('Bees');
    // Recorded per document: opened again with model-b, nothing is embedded again.
    b.close();
    const again = new HashEmbedder(32);
    await (await library({ dbName, embedderId: 'model-b', embedder: again })).idle();
    expect(again.calls).toBe(0);
  });

  it('with a model that cannot run, still opens with every document listed and found by its words', async () => {
    const dbName = await storedWith('local:real/embedder');
    const failing = new FailingEmbedder();
    const b = await library({ dbName, embedderId: 'hub:Xenova/all-MiniLM-L6-v2', embedder: failing });
    await b.idle();
    expect((await b.list()).map((d) => [d.title, d.pendingEmbedding])).toEqual([
      ['Bees', true],
      ['tides', true],
    ]);
    // The other model's vectors are not searched against this model's questions.
    expect(await b.size()).toBe(0);
    expect((await b.retriever.retrieve('waggle dance', 1))[0]!.title).toBe('Bees');
    expect((await b.retriever.retrieve('spring tides full moon', 1))[0]!.title).toBe('tides');
    // Back with the model that made them, the stored vectors serve again: nothing was lost.
    b.close();
    const back = new HashEmbedder();
    const c = await library({ dbName, embedderId: 'local:real/embedder', embedder: back });
    await c.idle();
    expect(back.calls).toBe(0);
    expect(await c.size()).toBe(2);
  });

  it('re-embeds document by document: one the model fails on stays found by words, never with mixed vectors', async () => {
    const dbName = await storedWith('model-a');
    const b = await library({ dbName, embedderId: 'model-b', embedder: new FailingEmbedder('moon') });
    await b.idle();
    const listed = await b.list();
    expect(listed.find((d) => d.title === 'Bees')?.pendingEmbedding).toBeUndefined();
    expect(listed.find((d) => d.title === 'tides')?.pendingEmbedding).toBe(true);
    // Only the document model-b embedded is in the vector index.
    expect(await b.size()).toBe(1);
    expect((await b.retriever.retrieve('spring tides full moon', 1))[0]!.title).toBe('tides');
  });

  it('counts a model pack and the hub model it mirrors as one model', async () => {
    const dbName = await storedWith('local:Xenova/all-MiniLM-L6-v2');
    const embedder = new HashEmbedder();
    const b = await library({ dbName, embedderId: 'hub:Xenova/all-MiniLM-L6-v2', embedder });
    await b.idle();
    expect(embedder.calls).toBe(0);
    expect(await b.size()).toBe(2);
  });

  it('keeps a document found by its words at every moment it is put back with new vectors', async () => {
    const dbName = await storedWith('model-a');
    const index = new WatchedIndex();
    const b = await library({ dbName, embedderId: 'model-b', embedder: new HashEmbedder(32), index });
    await b.idle();
    expect((await b.list()).some((d) => d.pendingEmbedding)).toBe(false);
    // Opening changes no index here (no document's vectors fit model-b): each change is the re-embed's.
    const after = index.seen;
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter((s) => !s.found)).toEqual([]);
  });
});
