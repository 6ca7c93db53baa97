// Which GGUF models count as kept for offline use, from wllama's cache entries: the one rule the
// loader, the picker, Delete and the offline panel share.
import { describe, expect, it } from 'vitest';
import { isKept, keptAddress, keptModelNames, siteCopy, type KeptEntry } from '../../../../src/generator/wllama/kept';

const entry = (url: string, size: number, originalSize = size): KeptEntry => ({
  name: `hash_${url.split('/').pop()}`,
  size,
  metadata: { originalURL: url, originalSize },
});

const A = 'https://site.example/models/gguf/a.gguf';
const PARTS = [1, 2, 3].map((i) => `https://site.example/models/gguf/big-0000${i}-of-00003.gguf`);

describe('kept GGUF models', () => {
  it('counts a file only when it is stored whole, by wllama’s own size check', () => {
    expect(isKept([entry(A, 1000)], [A])).toBe(true);
    // Interrupted, or recorded with another size than stored: wllama would download it again.
    expect(isKept([entry(A, 400, 1000)], [A])).toBe(false);
    expect(isKept([{ name: 'x', size: 1000, metadata: null }], [A])).toBe(false);
    expect(isKept([entry(A, 8)], [A])).toBe(false);
    expect(isKept([], [])).toBe(false);
  });

  it('finds the address a model was stored under among its candidates', () => {
    const hub = 'https://hub.example/o/m/resolve/main/a.gguf';
    expect(keptAddress([entry(A, 1000)], [[hub], [A]])).toEqual([A]);
    expect(keptAddress([entry(hub, 1000)], [[A], [hub]])).toEqual([hub]);
    expect(keptAddress([], [[A], [hub]])).toBeNull();
  });

  it('names each kept model once, a split model by its first part and only with every part whole', () => {
    const all = PARTS.map((u) => entry(u, 100));
    expect(keptModelNames([entry(A, 1000), ...all])).toEqual(['a.gguf', 'big-00001-of-00003.gguf']);
    expect(keptModelNames([entry(A, 1000, 2000), ...all.slice(0, 2)])).toEqual([]);
    expect(keptModelNames([entry('https://site.example/notes.txt', 100)])).toEqual([]);
  });

  it("puts a catalogue model's site copy under models/gguf/ beside the page", () => {
    expect(siteCopy(['https://hub.example/o/m/resolve/main/a.gguf'], 'https://site.example/app/')).toEqual([
      'https://site.example/app/models/gguf/a.gguf',
    ]);
  });
});
