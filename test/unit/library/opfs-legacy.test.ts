// Users who chose the compact index in the previous version have its rows file in OPFS (up to
// 388 MB at 1M passages); the saved state replaced it, so it is deleted, and nothing else is.
import { describe, expect, it } from 'vitest';
import { removeLegacyFiles } from '../../../src/library/opfs-folder';

function folder(names: string[], held: string[] = []) {
  const files = new Set(names);
  return {
    files,
    dir: {
      async *keys() {
        yield* [...files];
      },
      async removeEntry(name: string) {
        if (held.includes(name)) throw new DOMException('held', 'NoModificationAllowedError');
        files.delete(name);
      },
    } as unknown as FileSystemDirectoryHandle,
  };
}

describe('OPFS: files of the earlier compact layout', () => {
  it('removes the old rows files and keeps the saved state and anything else', async () => {
    const f = folder([
      'compact-rows-384.bin',
      'compact-rows-768.bin',
      'selfrag-library.compact-head',
      'selfrag-library.compact-rows',
      'wllama-cache-x.gguf',
    ]);
    expect((await removeLegacyFiles(f.dir)).sort()).toEqual(['compact-rows-384.bin', 'compact-rows-768.bin']);
    expect([...f.files].sort()).toEqual([
      'selfrag-library.compact-head',
      'selfrag-library.compact-rows',
      'wllama-cache-x.gguf',
    ]);
  });

  it('leaves a file another tab holds for the next start', async () => {
    const f = folder(['compact-rows-384.bin'], ['compact-rows-384.bin']);
    expect(await removeLegacyFiles(f.dir)).toEqual([]);
    expect([...f.files]).toEqual(['compact-rows-384.bin']);
  });
});
