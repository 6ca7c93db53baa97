import { describe, expect, it } from 'vitest';
import { documentId, EMBED_BATCH, embedPassages, prepareFile } from '../../../src/library/ingest';
import { HashEmbedder } from '../../doubles/hash-embedder';

describe('ingest', () => {
  it('names a document by its content: same text, same id; any change, another id', async () => {
    const a = await documentId('The moon pulls the sea.');
    expect(a).toMatch(/^doc-[0-9a-f]{16}$/);
    expect(await documentId('The moon pulls the sea.')).toBe(a);
    expect(await documentId('The moon pulls the sea!')).not.toBe(a);
    const ids = new Set(await Promise.all(Array.from({ length: 2000 }, (_, i) => documentId(`passage ${i}`))));
    expect(ids.size).toBe(2000);
  });

  it('keeps the ids libraries already store: the same text gets the same id as in earlier versions', async () => {
    // Values written by the version before the hash moved to src/core/cyrb53.ts; a change here
    // would make every stored document look new (added twice, its passages re-embedded).
    expect(await documentId('The moon raises two tidal bulges.')).toBe('doc-a09c2d3b9d7845ce');
    expect(await documentId('')).toBe('doc-488bdcb81aee8d83');
    expect(await documentId('ünïcödé 🌊')).toBe('doc-f91fabde94cf902a');
  });

  it('embeds title and text of each passage in batches, reporting progress', async () => {
    const text = Array.from({ length: 80 }, (_, i) => `Sentence ${i} about kites.`).join(' ');
    const doc = await prepareFile(
      { name: 'kites.txt', bytes: new TextEncoder().encode(text) },
      { chunk: { targetTokens: 10, overlapTokens: 0 } },
    );
    expect(doc.passages.length).toBeGreaterThan(EMBED_BATCH);
    const embedder = new HashEmbedder();
    const progress: number[] = [];
    const vectors = await embedPassages(embedder, doc.passages, { onBatch: (done) => progress.push(done) });
    expect(vectors).toHaveLength(doc.passages.length);
    expect(embedder.calls).toBe(Math.ceil(doc.passages.length / EMBED_BATCH));
    expect(progress.at(-1)).toBe(doc.passages.length);
    expect(embedder.texts[0]).toBe(`kites\n${doc.passages[0]!.text}`);
  });

  it('stops between batches when aborted, and rejects an embedder that loses vectors', async () => {
    const passages = Array.from({ length: 100 }, (_, i) => ({
      id: `d#${i}`,
      docId: 'd',
      title: 'T',
      text: `p${i}`,
      index: i,
    }));
    const controller = new AbortController();
    const embedder = new HashEmbedder();
    await expect(
      embedPassages(embedder, passages, { signal: controller.signal, onBatch: () => controller.abort() }),
    ).rejects.toThrow();
    expect(embedder.calls).toBe(1);
    await expect(
      embedPassages({ embed: async (t) => t.slice(1).map(() => new Float32Array([1])) }, passages),
    ).rejects.toThrow(/returned 31 vectors for 32/);
  });
});
