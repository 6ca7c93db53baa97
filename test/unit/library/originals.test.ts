// The library keeps each added file for the source viewer unless the setting says not to,
// reads the setting at every batch, keeps nothing for pasted text, and gives a document's
// passages, places and file to the viewer in one call.
import { describe, expect, it } from 'vitest';
import { BEES, library, TIDES } from './open-library';

describe('originals in the library', () => {
  it('keeps the file as added and hands it to the viewer with the passages and their places', async () => {
    const lib = await library();
    const { added } = await lib.addFiles([{ ...BEES, type: 'text/markdown' }]);
    const doc = added[0]!;
    expect(doc.originalBytes).toBe(BEES.bytes.length);
    const src = await lib.source(doc.id);
    expect(new Uint8Array(await src!.original!.blob.arrayBuffer())).toEqual(BEES.bytes);
    expect(src!.original!.type).toBe('text/markdown');
    expect(src!.passages[0]!.source).toEqual({ headings: ['Bees'] });
    await lib.remove(doc.id);
    expect(await lib.source(doc.id)).toBeUndefined();
  });

  it('follows the setting from the next batch on, and keeps no file for pasted text', async () => {
    let keep = false;
    const lib = await library({ keepOriginals: () => keep });
    const off = (await lib.addFiles([TIDES])).added[0]!;
    expect(off.originalBytes).toBeUndefined();
    expect((await lib.source(off.id))?.original).toBeUndefined();
    keep = true;
    const on = (await lib.addFiles([BEES])).added[0]!;
    expect((await lib.source(on.id))?.original).toBeDefined();
    const pasted = (await lib.addText('Note', 'A pasted note about the weather.')).added[0]!;
    expect((await lib.source(pasted.id))?.original).toBeUndefined();
  });
});
