import { describe, expect, it } from 'vitest';
import { HashEmbedder } from '../../doubles/hash-embedder';
import { BEES, freshDb, library } from './open-library';

describe('a library opened with another embedding model', () => {
  it('re-embeds stored passages when the embedding model changed', async () => {
    const dbName = freshDb('model');
    (await library({ dbName, embedderId: 'model-a' })).close();
    const a = await library({ dbName, embedderId: 'model-a' });
    await a.addFiles([BEES]);
    a.close();
    const embedder = new HashEmbedder(32);
    const b = await library({ dbName, embedderId: 'model-b', embedder });
    expect(embedder.texts).toHaveLength(1);
    expect((await b.retriever.retrieve('waggle dance', 1))[0]!.title).toBe('Bees');
  });
});
