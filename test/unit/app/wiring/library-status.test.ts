// The status panel's line for the library says which vector index serves and why, and follows
// the automatic switch to the compact index when the library grows past the threshold.
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { CompactIndex } from '../../../../src/vector/compact-index';
import { FlatIndex } from '../../../../src/vector/flat-index';
import { connectLibrary } from '../../../../src/app/wiring/library-connection';
import { createStatusStore } from '../../../../src/app/state/worker-status';
import { IndexHost } from '../../../../src/library/index-host';
import { Library } from '../../../../src/library/library';
import { HashEmbedder } from '../../../doubles/hash-embedder';

const host = new IndexHost('auto', (kind, dim) => (kind === 'compact' ? new CompactIndex(dim) : new FlatIndex(dim)), {
  compactAt: 3,
});

vi.mock('../../../../src/library/browser', () => ({
  openBrowserLibrary: (opts: Parameters<typeof Library.open>[0]) =>
    Library.open({ ...opts, index: host, dbName: 'status-auto', seed: false }),
}));

describe('library status line', () => {
  it('names the index serving and why, before and after the automatic switch', async () => {
    const status = createStatusStore();
    const conn = connectLibrary({
      status,
      baseURI: 'http://localhost/',
      embedder: async () => new HashEmbedder(),
      indexKind: () => 'auto',
    });
    await conn.connection();
    expect(status.get().library.reason).toMatch(
      /^Vectors: flat exact search: 0 passages, below the 3 at which it switches to compact codes\. Words: /,
    );
    const files = ['kites', 'bees', 'tides', 'owls'].map(
      (w) => new File([`${w} are the subject of this note about ${w}.`], `${w}.txt`, { type: 'text/plain' }),
    );
    await conn.view.actions.addFiles(files);
    await host.switched();
    conn.start();
    await vi.waitFor(() =>
      expect(status.get().library.reason).toMatch(
        /^Vectors: compact 1-bit codes with int8 rescoring: the library passed 3 passages, where exact search would hold/,
      ),
    );
    (await conn.connection()).close();
  });
});
