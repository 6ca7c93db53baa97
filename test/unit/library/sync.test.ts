import { describe, expect, it, vi } from 'vitest';
import { BEES, freshDb, library } from './open-library';

describe('libraries in two tabs on the same database', () => {
  it('a second tab on the same database follows additions and removals in its index', async () => {
    const dbName = freshDb('tabs');
    const a = await library({ dbName });
    let changes = 0;
    const b = await library({ dbName, onExternalChange: () => changes++ });
    const { added } = await a.addFiles([BEES]);
    await vi.waitFor(async () => expect(await b.size()).toBe(1));
    expect((await b.retriever.retrieve('waggle dance', 1))[0]!.title).toBe('Bees');
    await a.remove(added[0]!.id);
    await vi.waitFor(async () => expect(await b.size()).toBe(0));
    // Told three times: the document's words went in, then its vectors, then it was removed.
    expect(changes).toBe(3);
  });
});
