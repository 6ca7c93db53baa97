// The offline panel lists the GGUF models llama.cpp keeps, read from wllama's OPFS folder by the
// rule the loader and the picker use: whole files only.
import { describe, expect, it } from 'vitest';
import { listCachedModels } from '../../../../src/app/browser/cached-models';
import { listKeptGguf } from '../../../../src/app/browser/kept-gguf';

/** An OPFS root holding wllama's `cache` folder with these files (name → contents). */
function opfs(files: Record<string, Blob> | null) {
  const folder = {
    async *entries() {
      for (const [name, blob] of Object.entries(files ?? {}))
        yield [name, { kind: 'file', getFile: async () => blob }] as const;
    },
  };
  return async () =>
    ({
      getDirectoryHandle: async (name: string, opts?: { create?: boolean }) => {
        if (opts?.create) throw new Error('the panel must not create the folder');
        if (name !== 'cache' || !files) throw new DOMException('not found', 'NotFoundError');
        return folder;
      },
    }) as unknown as FileSystemDirectoryHandle;
}

const bytes = (n: number) => new Blob([new Uint8Array(n)]);
const record = (url: string, size: number) =>
  new Blob([JSON.stringify({ originalURL: url, originalSize: size, etag: '' })]);
const URL_A = 'http://127.0.0.1:4000/models/gguf/qwen2.5-0.5b-instruct-q4_k_m.gguf';
const URL_B = 'https://huggingface.co/o/m/resolve/main/half.gguf';

describe('GGUF models kept in OPFS', () => {
  it('lists the whole ones by file name, not a download cut short', async () => {
    const root = opfs({
      a_qwen: bytes(1000),
      __metadata__a_qwen: record(URL_A, 1000),
      b_half: bytes(300),
      __metadata__b_half: record(URL_B, 900),
      c_partial: bytes(50),
    });
    expect(await listKeptGguf(root)).toEqual(['qwen2.5-0.5b-instruct-q4_k_m.gguf']);
  });

  it('lists nothing where llama.cpp never stored a file, or there is no OPFS', async () => {
    expect(await listKeptGguf(opfs(null))).toEqual([]);
    expect(await listKeptGguf(undefined)).toEqual([]);
  });

  it("joins web-llm's models in the panel's language-model list", async () => {
    const none = { has: async () => false } as unknown as CacheStorage;
    expect(
      await listCachedModels(none, () => listKeptGguf(opfs({ a: bytes(64), __metadata__a: record(URL_A, 64) }))),
    ).toEqual({
      evaluator: [],
      generator: ['qwen2.5-0.5b-instruct-q4_k_m.gguf'],
    });
  });
});
