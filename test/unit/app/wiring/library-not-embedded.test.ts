// A batch added while the embedding model cannot load: the page says so once for the batch (not
// once per document), and once the model loads, embedPending gives every kept document its
// vectors and the list and status line stop calling them "not embedded yet".
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { FlatIndex } from '../../../../src/vector/flat-index';
import { connectLibrary } from '../../../../src/app/wiring/library-connection';
import { createStatusStore } from '../../../../src/app/state/worker-status';
import { IndexHost } from '../../../../src/library/index-host';
import { Library } from '../../../../src/library/library';
import { HashEmbedder } from '../../../doubles/hash-embedder';

let opened = 0;
vi.mock('../../../../src/library/browser', () => ({
  openBrowserLibrary: (opts: Parameters<typeof Library.open>[0]) =>
    Library.open({
      ...opts,
      index: new IndexHost('flat', (_kind, dim) => new FlatIndex(dim)),
      dbName: `not-embedded-${opened++}`,
      seed: false,
    }),
}));

describe('documents added while the embedding model cannot load', () => {
  it('are reported in one line for the batch, then embedded once the model loads', async () => {
    const status = createStatusStore();
    const working = new HashEmbedder();
    let down = true;
    const unreachable = 'Could not load the embedding model "tiny/embedder" from the Hugging Face hub: Failed to fetch';
    const embedder = {
      embed: (t: string[], s?: AbortSignal) => (down ? Promise.reject(new Error(unreachable)) : working.embed(t, s)),
    };
    const conn = connectLibrary({ status, baseURI: 'http://localhost/', embedder: async () => embedder });
    const files = Array.from(
      { length: 12 },
      (_, i) =>
        new File([`Note ${i} is about lighthouse keeper number ${i} and the fog horn.`], `note-${i}.txt`, {
          type: 'text/plain',
        }),
    );
    await conn.view.actions.addFiles(files);

    const [report] = conn.view.get().reports ?? [];
    expect(report).toMatchObject({ added: 12, refused: [], notes: [] });
    expect(report!.notEmbedded).toEqual([
      { reason: expect.stringContaining(unreachable), names: files.map((f) => f.name) },
    ]);
    expect(conn.view.get().docs.filter((d) => d.pending)).toHaveLength(12);
    expect(status.get().library.reason).toMatch(/12 documents are not embedded yet/);
    const lib = await conn.connection();
    expect(await lib.size()).toBe(0);

    down = false;
    await conn.embedPending();
    expect(conn.view.get().docs.filter((d) => d.pending)).toEqual([]);
    expect(status.get().library.reason).not.toMatch(/not embedded yet/);
    expect(await lib.size()).toBe(12);
    lib.close();
  });
});

describe('an embedding model that cannot start at all', () => {
  it('never keeps the library shut: it opens, lists what is added and finds it by words', async () => {
    const status = createStatusStore();
    const conn = connectLibrary({
      status,
      baseURI: 'http://localhost/',
      embedder: () => Promise.reject(new Error('Could not start the evaluator')),
      embedderId: () => Promise.reject(new Error('Could not start the evaluator')),
    });
    await conn.view.actions.addFiles([new File(['The fog horn sounds at the lighthouse.'], 'fog.txt')]);
    expect(status.get().library.state).toBe('ready');
    expect(conn.view.get().docs.map((d) => [d.name, d.pending])).toEqual([['fog.txt', true]]);
    const lib = await conn.connection();
    expect((await lib.retriever.retrieve('fog horn', 1))[0]?.docId).toBe(conn.view.get().docs[0]!.id);
    lib.close();
  });
});
