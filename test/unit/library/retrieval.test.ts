// The real library (IndexedDB through fake-indexeddb, the index host, the word index) with the
// tiny generated models through the real transformers.js: a question about an identifier
// that appears in one passage finds that passage first, and the word index survives a
// reload without re-tokenising the library.
import 'fake-indexeddb/auto';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { FlatIndex } from '../../../src/vector/flat-index';
import { IndexHost } from '../../../src/library/index-host';
import { Library } from '../../../src/library/library';
import { encodePrebuilt } from '../../../src/library/prebuilt';
import { LexicalIndex } from '../../../src/library/lexical/lexical-index';
import { createEmbedder } from '../../../workers/evaluator/embedder';
import { createReranker } from '../../../workers/evaluator/reranker';
import { embeddingText } from '../../../src/library/ingest';
import { labelledSet } from '../../../bench/retrieval/labelled-set';
import { tinyRuntime, TINY_MODEL_IDS } from '../evaluator/tiny';

const embedder = createEmbedder({ ...tinyRuntime(), model: { id: TINY_MODEL_IDS.embedder, dtype: 'fp32' } });
const reranker = createReranker({
  ...tinyRuntime({ batchSize: 20 }),
  model: { id: TINY_MODEL_IDS.reranker, dtype: 'fp32' },
});
afterAll(async () => {
  await embedder.dispose();
  await reranker.dispose();
});

const set = labelledSet();
// The error-code passages: 160 passages worded alike, told apart only by their code.
const errors = set.passages.filter((p) => p.docId.startsWith('err-'));
const questions = set.questions.filter((q) => q.kind === 'identifier');

let n = 0;
const open: Library[] = [];
afterEach(() => open.splice(0).forEach((l) => l.close()));

async function library(dbName: string, host = new IndexHost('flat', (_k, dim) => new FlatIndex(dim))) {
  const rerank = vi.fn((q: string, texts: string[]) => reranker.score(q, texts));
  const lib = await Library.open({ embedder, index: host, dbName, seed: false, rerank });
  open.push(lib);
  return { lib, host, rerank };
}

async function fill(lib: Library) {
  // One document per passage, as a user adding many short notes would.
  for (const p of errors) await lib.addText(p.title, p.text);
  await lib.idle();
}

const goldText = (gold: string) => set.passages.find((p) => p.id === gold)!.text;

describe('hybrid retrieval in the library', () => {
  it('asking about an identifier that appears in one passage finds that passage first (default: both + re-rank)', async () => {
    const { lib, rerank } = await library(`hybrid-${n++}`);
    await fill(lib);
    for (const q of questions) {
      const [first] = await lib.retriever.retrieve(q.question, 3);
      expect(first?.text, q.question).toBe(goldText(q.gold));
      // Found by words, and scored by the cross-encoder in the same call as the other candidates.
      expect(first?.ranks?.lexical).toBe(1);
      expect(first?.ranks?.rerank).toBeGreaterThan(0);
    }
    expect(rerank).toHaveBeenCalledTimes(questions.length);
    expect(rerank.mock.calls.every((c) => c[1].length === 20)).toBe(true);
  });

  it('meaning alone (the tiny hashed bag-of-words embedder) misses most of them; words alone finds them', async () => {
    const { lib } = await library(`hybrid-${n++}`);
    await fill(lib);
    const firstBy = async (search: 'words' | 'meaning') => {
      let hits = 0;
      for (const q of questions)
        if ((await lib.retrieverWith({ search, rerank: false }).retrieve(q.question, 1))[0]?.text === goldText(q.gold))
          hits++;
      return hits;
    };
    expect(await firstBy('words')).toBe(questions.length);
    expect(await firstBy('meaning')).toBeLessThan(questions.length / 2);
  });

  it('keeps the word index across a reload without tokenising the library again, and follows removals', async () => {
    const db = `hybrid-${n++}`;
    const first = await library(db);
    await fill(first.lib);
    const q = questions[0]!;
    const before = await first.lib.retriever.retrieve(q.question, 5);
    const removed = (await first.lib.list()).find((d) => d.title && before[1] && d.id === before[1].docId)!;
    await first.lib.remove(removed.id);
    const after = await first.lib.retrieverWith({ search: 'words', rerank: false }).retrieve(q.question, 5);
    expect(after.map((p) => p.docId)).not.toContain(removed.id);
    await first.lib.idle();
    first.lib.close();
    open.length = 0;

    const host = new IndexHost('flat', (_k, dim) => new FlatIndex(dim));
    const addText = vi.spyOn(host, 'addText');
    const again = await library(db, host);
    expect(await host.lexicalSize()).toBe(errors.length - 1);
    // Nothing was re-tokenised: the snapshot held every passage.
    expect(addText.mock.calls.flatMap((c) => c[0])).toEqual([]);
    expect(await again.lib.retrieverWith({ search: 'words', rerank: false }).retrieve(q.question, 5)).toEqual(after);
  });

  it('rebuilds only what the saved word index lacks (e.g. a tab closed before it was saved)', async () => {
    const db = `hybrid-${n++}`;
    const first = await library(db);
    await fill(first.lib);
    first.lib.close();
    open.length = 0;
    // Simulate a snapshot two documents behind the stored library.
    const { LibraryStore } = await import('../../../src/library/store');
    const store = await LibraryStore.open(db);
    const old = LexicalIndex.fromSnapshot((await store.getLexical())!)!;
    old.remove((await store.listDocuments()).slice(0, 2).map((d) => `${d.id}#0`));
    await store.putLexical(await old.snapshot());
    store.close();
    const host = new IndexHost('flat', (_k, dim) => new FlatIndex(dim));
    const addText = vi.spyOn(host, 'addText');
    await library(db, host);
    expect(addText.mock.calls.flatMap((c) => c[0]).length).toBe(2);
    expect(await host.lexicalSize()).toBe(errors.length);
  });

  it.each([
    ['saved by the MiniSearch version (JSON)', { format: 'minisearch-7', tokenizer: 1, json: '{"documentCount":0}' }],
    ['damaged (bytes that are not a word index)', { format: 'words-1', blob: new Blob([new Uint8Array(200).fill(7)]) }],
  ])('rebuilds once, from the stored passages, a word index %s, and saves it as bytes', async (_what, stored) => {
    const db = `hybrid-${n++}`;
    const first = await library(db);
    await fill(first.lib);
    const q = questions[0]!;
    const before = await first.lib.retrieverWith({ search: 'words', rerank: false }).retrieve(q.question, 5);
    first.lib.close();
    open.length = 0;
    const { LibraryStore } = await import('../../../src/library/store');
    const store = await LibraryStore.open(db);
    await store.setMeta('lexicalIndex', stored);
    store.close();
    const host = new IndexHost('flat', (_k, dim) => new FlatIndex(dim));
    const addText = vi.spyOn(host, 'addText');
    const again = await library(db, host);
    expect(addText.mock.calls.flatMap((c) => c[0]).length).toBe(errors.length);
    expect(await again.lib.retrieverWith({ search: 'words', rerank: false }).retrieve(q.question, 5)).toEqual(before);
    await again.lib.idle();
    again.lib.close();
    open.length = 0;
    const reopened = await LibraryStore.open(db);
    const saved = (await reopened.getLexical()) as { format: string; bytes?: unknown };
    // One binary value beside the record, never a string (Chromium refuses records over 127 MiB; a Blob is kept apart).
    const raw = await reopened.getMeta<{ blob?: unknown }>('lexicalIndex');
    reopened.close();
    expect(raw?.blob).toBeInstanceOf(Blob);
    expect(saved.format).toBe('words-1');
    expect(saved.bytes).toBeInstanceOf(Uint8Array);
    // The next start loads it: nothing is tokenised again.
    const third = new IndexHost('flat', (_k, dim) => new FlatIndex(dim));
    const addText3 = vi.spyOn(third, 'addText');
    await library(db, third);
    expect(addText3.mock.calls.flatMap((c) => c[0])).toEqual([]);
  });

  it('loads the site’s pre-built word index instead of tokenising its passages', async () => {
    const passages = errors.slice(0, 20).map((p) => ({ ...p, docId: p.docId, id: p.id }));
    const documents = passages.map((p) => ({
      id: p.docId,
      title: p.title,
      name: `${p.docId}.txt`,
      format: 'text' as const,
      text: p.text,
    }));
    const vectors = await embedder.embed(passages.map(embeddingText));
    const built = encodePrebuilt({ model: null, documents, passages, vectors, createdAt: 't1' });
    const lexical = new LexicalIndex();
    lexical.add(passages.map((p) => ({ id: p.id, text: embeddingText(p) })));
    const files: Record<string, BodyInit> = {
      'index/library.json': built.json,
      'index/vectors.bin': built.vectors as unknown as BodyInit,
      'index/words.bin': (await lexical.snapshot()).bytes as unknown as BodyInit,
      'index/version.json': built.version,
    };
    const fetch = (async (url: string) => {
      const path = new URL(url).pathname.slice(1);
      return path in files ? new Response(files[path]) : new Response('', { status: 404 });
    }) as typeof globalThis.fetch;
    const host = new IndexHost('flat', (_k, dim) => new FlatIndex(dim));
    const replace = vi.spyOn(host, 'replace');
    const lib = await Library.open({ embedder, index: host, dbName: `hybrid-${n++}`, baseUrl: 'http://site/', fetch });
    open.push(lib);
    expect(await host.lexicalSize()).toBe(20);
    // Each document's passages were offered to the word index and found already there.
    const tokenised = await Promise.all(replace.mock.results.map((r) => r.value as Promise<number>));
    expect(tokenised.length).toBe(20);
    expect(tokenised.every((x) => x === 0)).toBe(true);
    const q = questions.find((x) => passages.some((p) => p.id === x.gold))!;
    expect((await lib.retriever.retrieve(q.question, 1))[0]?.id).toBe(q.gold);
  });
});
