// What the page says about storage: the estimate, a download that will not fit, and a quota
// error in the middle of an ingestion, which must leave the library exactly as it was.
import 'fake-indexeddb/auto';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FlatIndex } from '../../../../src/vector/flat-index';
import { IndexHost } from '../../../../src/library/index-host';
import { Library, type LibraryProgress } from '../../../../src/library/library';
import { LibraryStore } from '../../../../src/library/store';
import type { OfflineState } from '../../../../src/app/state/offline-shell';
import { createStorageStore } from '../../../../src/app/browser/storage-quota';
import { estimateText, fitWarning, quotaMessage } from '../../../../src/app/view/storage-messages';
import { formatBytes } from '../../../../src/app/view/progress';
import { OfflineStatus } from '../../../../src/ui/OfflineStatus';
import { HashEmbedder } from '../../../doubles/hash-embedder';

const enc = (s: string) => new TextEncoder().encode(s);
const GB = 1e9;

afterEach(() => vi.restoreAllMocks());

describe('storage messages', () => {
  it('formats the estimate in words a user reads', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1_234_567)).toBe('1.2 MB');
    expect(formatBytes(2.5 * GB)).toBe('2.5 GB');
    expect(estimateText({ usage: 1.2 * GB, quota: 3 * GB })).toBe(
      '1.2 GB used of 3.0 GB this site may use (1.8 GB free)',
    );
  });

  it('shows the estimate and whether the browser keeps the data in the offline panel', () => {
    const offline: OfflineState = { shell: 'ready', error: null, updateReady: false, stale: false };
    const html = renderToStaticMarkup(
      <OfflineStatus
        offline={offline}
        models={{ evaluator: ['Xenova/all-MiniLM-L6-v2'], generator: [] }}
        storage={{ estimate: { usage: 1.2 * GB, quota: 3 * GB }, persisted: false, warning: null }}
        onDismissWarning={() => undefined}
      />,
    );
    expect(html).toContain('Storage: 1.2 GB used of 3.0 GB this site may use (1.8 GB free).');
    expect(html).toContain('may clear this data when space runs low');
    expect(html).toContain('Not ready to work offline yet.');
    expect(html).toContain('a language model (it downloads with your first question)');
  });

  it('in a frame the browser gives no storage, says nothing is kept instead of a service-worker error and quota figures', () => {
    const offline: OfflineState = {
      shell: 'error',
      error: 'Failed to register a ServiceWorker: The user denied permission to use Service Worker.',
      updateReady: false,
      stale: false,
    };
    const html = renderToStaticMarkup(
      <OfflineStatus
        offline={offline}
        models={{ evaluator: [], generator: [] }}
        storage={{ estimate: { usage: 0, quota: 11 * GB }, persisted: false, warning: null }}
        mode="memory"
        onDismissWarning={() => undefined}
      />,
    );
    expect(html).toContain('Nothing is kept in this browser here.');
    expect(html).toContain('Open the page on its own site');
    expect(html).not.toContain('ServiceWorker');
    expect(html).not.toContain('this site may use');
    expect(html).not.toContain('may clear this data');
  });

  it('recognises quota errors however they arrive, and nothing else', () => {
    expect(
      quotaMessage(new DOMException('The quota has been exceeded.', 'QuotaExceededError'), 'the model x'),
    ).not.toBeNull();
    expect(quotaMessage('QuotaExceededError: Failed to execute put on Cache', 'the model x')).not.toBeNull(); // web-llm's errors are strings
    expect(quotaMessage(new Error('Network error: failed to fetch'), 'the model x')).toBeNull();
    expect(quotaMessage(undefined, 'the model x')).toBeNull();
    expect(quotaMessage(new Error('the file is empty'), 'the document a.txt')).toBeNull();
  });

  it('names what to delete, with the estimate, when storage is full', () => {
    const text = quotaMessage(new DOMException('x', 'QuotaExceededError'), 'the document notes.pdf', {
      usage: 2.9 * GB,
      quota: 3 * GB,
    })!;
    expect(text).toContain('no room left for this site to store the document notes.pdf');
    expect(text).toContain('2.9 GB used of 3.0 GB');
    expect(text).toMatch(/delete a downloaded language model/);
    expect(text).toMatch(/remove documents/);
  });

  it('warns before a download that will not fit, and not before one that will', () => {
    const estimate = { usage: 2 * GB, quota: 3 * GB };
    expect(fitWarning(0.5 * GB, 'Qwen2.5 0.5B', estimate)).toBeNull();
    expect(fitWarning(1.9 * GB, 'Qwen2.5 1.5B', estimate)).toMatch(
      /^Qwen2.5 1.5B needs up to 1.9 GB, but this site may only store 1.0 GB more/,
    );
    expect(fitWarning(1.9 * GB, 'x', null)).toBeNull(); // no estimate: no guess
  });

  it('asks for persistent storage once, and reads the estimate', async () => {
    const persist = vi.fn(async () => true);
    const store = createStorageStore({
      persist,
      persisted: async () => false,
      estimate: async () => ({ usage: 10, quota: 100 }),
    });
    await Promise.all([store.persist(), store.persist()]);
    await store.persist();
    expect(persist).toHaveBeenCalledTimes(1);
    expect(store.get().persisted).toBe(true);
    expect(await store.checkFits(200, 'A model')).toMatch(/A model needs up to 200 B/);
    expect(store.get().estimate).toEqual({ usage: 10, quota: 100 });
    expect(store.get().warning).toMatch(/needs up to/);
    expect(await store.checkFits(50, 'A model')).toBeNull();
    expect(store.get().warning).toBeNull();
  });
});

describe('a quota error in the middle of an ingestion', () => {
  it('refuses that document with the storage message and leaves the library as it was', async () => {
    const dbName = `quota-${Math.random()}`;
    const events: LibraryProgress[] = [];
    const open = () =>
      Library.open({
        embedder: new HashEmbedder(),
        index: new IndexHost('flat', (_k, dim) => new FlatIndex(dim)),
        dbName,
        seed: false,
        onProgress: (p) => events.push(p),
      });
    const lib = await open();
    await lib.addFiles([
      { name: 'bees.md', bytes: enc('# Bees\n\nForager bees perform a waggle dance to show where flowers are.') },
    ]);
    const before = await lib.list();

    // The browser runs out of room while the big document's vectors are written: its document
    // record and passages are already in the same transaction by then.
    const put = IDBObjectStore.prototype.put;
    let doomed: string | undefined;
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (
      this: IDBObjectStore,
      value: unknown,
      key?: IDBValidKey,
    ) {
      const v = value as { id?: string; name?: string; docId?: string };
      if (this.name === 'documents' && v.name === 'tides.txt') doomed = v.id;
      if (this.name === 'vectors' && doomed !== undefined && v.docId === doomed) {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      }
      return put.call(this, value, key);
    });
    const tides = 'The moon raises two tidal bulges. Spring tides come at full moon. '.repeat(40);
    const res = await lib.addFiles([
      { name: 'tides.txt', bytes: enc(tides) },
      { name: 'owls.txt', bytes: enc('Owls hunt at night and fly without a sound.') },
    ]);
    vi.restoreAllMocks();

    expect(res.refused.map((r) => r.name)).toEqual(['tides.txt']);
    expect(res.added.map((d) => d.title)).toEqual(['owls']);
    // What the page shows for the refusal (view/library-progress.ts maps it through quotaMessage).
    const refusal = events.find((e) => e.stage === 'refused')!;
    const shown = quotaMessage(refusal.message, `the document ${refusal.name}`);
    expect(shown).toMatch(
      /no room left for this site to store the document tides.txt.*delete a downloaded language model/,
    );

    // Nothing of tides.txt was kept: not in the list, no passages, no vectors, after reopening too.
    const titles = (l: { title: string }[]) => l.map((d) => d.title);
    expect(titles(await lib.list())).toEqual([...titles(before), 'owls']);
    lib.close();
    const store = await LibraryStore.open(dbName);
    const docs = await store.listDocuments();
    expect(docs.map((d) => d.name)).toEqual(['bees.md', 'owls.txt']);
    expect(doomed).toBeDefined();
    expect(await store.getDocument(doomed!)).toBeUndefined();
    expect(await store.passagesOf(doomed!)).toEqual([]);
    for (const d of await store.listDocuments())
      expect((await store.passagesOf(d.id)).every((p) => !p.text.includes('tidal'))).toBe(true);
    const reopened = await open();
    expect(titles(await reopened.list())).toEqual(['Bees', 'owls']);
    const hits = await reopened.retriever.retrieve('tidal bulges spring tides moon', 5);
    expect(hits.every((h) => !h.text.includes('tidal'))).toBe(true);
    reopened.close();
  });
});
