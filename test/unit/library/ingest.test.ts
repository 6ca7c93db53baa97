import { describe, expect, it } from 'vitest';
import {
  documentId,
  EMBED_BATCH,
  embeddingText,
  embedPassages,
  headingContext,
  prepareFile,
} from '../../../src/library/ingest';
import { LexicalIndex } from '../../../src/library/lexical/lexical-index';
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

  it('indexes a passage with its heading path, so a function named only in a heading finds its description', async () => {
    const filler = (n: number) =>
      Array.from({ length: n }, (_, i) => `Line ${i} of general notes on encodings.`).join(' ');
    const html = `<html><head><title>GNU Libtasn1</title></head><body><h1>GNU Libtasn1</h1>
      <h2>Function reference</h2><p>${filler(40)}</p>
      <h3>asn1_der_decoding</h3><p>Fill the structure *element with values of a DER encoding string. ${filler(30)}</p>
      <h3>asn1_der_coding</h3><p>Creates the DER encoding for the NAME structure. ${filler(30)}</p></body></html>`;
    const doc = await prepareFile({ name: 'libtasn1.html', bytes: new TextEncoder().encode(html) });
    const under = doc.passages.filter((p) => p.text.includes('Fill the structure'));
    expect(under.length).toBeGreaterThan(0);
    // The reader's text stays the passage; the path travels apart, without the title it repeats.
    const later = doc.passages.find(
      (p) => !p.text.includes('asn1_der_decoding') && headingContext(p).includes('asn1_der_decoding'),
    );
    expect(later, 'a passage under the heading that does not hold its name').toBeDefined();
    expect(headingContext(later!)).toEqual(['Function reference', 'asn1_der_decoding']);
    expect(embeddingText(later!)).toBe(`GNU Libtasn1\nFunction reference › asn1_der_decoding\n${later!.text}`);
    const words = new LexicalIndex();
    words.add(doc.passages.map((p) => ({ id: p.id, text: embeddingText(p) })));
    // Found by the name alone, which only its heading holds.
    expect(words.search('asn1_der_decoding', 10).map((h) => h.id)).toContain(later!.id);
    const top = words.search('What does asn1_der_decoding do?', 1)[0]!;
    expect(headingContext(doc.passages.find((p) => p.id === top.id)!)).toContain('asn1_der_decoding');
  });
});
