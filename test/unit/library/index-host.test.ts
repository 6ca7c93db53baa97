import { beforeAll, describe, expect, it } from 'vitest';
import { FlatIndex } from '../../../src/vector/flat-index';
import type { IndexKind } from '../../../src/vector/vector-index';
import { IndexHost } from '../../../src/library/index-host';
import { VoyIndex } from '../../../workers/index/voy-index';
import { loadVoyInNode } from '../../../workers/index/voy-node';

beforeAll(() => loadVoyInNode());
const make = (kind: IndexKind, dim: number) => (kind === 'flat' ? new FlatIndex(dim) : new VoyIndex(dim));

describe('IndexHost', () => {
  it('creates the selected index on the first add, with the vectors’ dimension', async () => {
    const host = new IndexHost('voy', make);
    expect(await host.dim()).toBeUndefined();
    expect(await host.search(new Float32Array([1, 0]), 3)).toEqual([]);
    await host.add(['a', 'b'], [new Float32Array([1, 0]), new Float32Array([0, 1])]);
    expect(await host.dim()).toBe(2);
    expect((await host.search(new Float32Array([0.9, 0.1]), 1))[0]!.id).toBe('a');
  });

  it('refuses vectors of another dimension while it holds any, with a hint', async () => {
    const host = new IndexHost('flat', make);
    await host.add(['a'], [new Float32Array([1, 0])]);
    await expect(host.add(['b'], [new Float32Array([1, 0, 0])])).rejects.toThrow(/embedding model changed/);
    await host.clear();
    await host.add(['b'], [new Float32Array([1, 0, 0])]);
    expect(await host.dim()).toBe(3);
  });

  it('loads serialised bytes from either kind into the selected kind', async () => {
    const flat = new IndexHost('flat', make);
    await flat.add(['x', 'y'], [new Float32Array([1, 2, 3, 4]), new Float32Array([4, 3, 2, 1])]);
    const voy = new IndexHost('voy', make);
    await voy.load(await flat.serialize());
    expect(await voy.size()).toBe(2);
    expect((await voy.search(new Float32Array([1, 2, 3, 4]), 1))[0]).toEqual({ id: 'x', score: expect.closeTo(1, 5) });
    await expect(new IndexHost('flat', make).serialize()).rejects.toThrow(/empty/);
  });
});
