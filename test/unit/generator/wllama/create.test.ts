// The llama.cpp generator handle with a stand-in connection: the states, typed
// errors and cancel the app relies on, and which engine the address picks.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { engineInput } from '../../../../src/app/persist/engine-choice';
import { createWllamaGenerator } from '../../../../src/generator/wllama/create';
import { GeneratorError } from '../../../../src/generator/errors';
import type { WllamaConnection } from '../../../../src/generator/wllama/client';

function fakeConnection(load: WllamaConnection['load']): WllamaConnection & { terminated: number; aborted: number[] } {
  const conn = {
    terminated: 0,
    aborted: [] as number[],
    load,
    cancelDownload: () => {},
    chatStream: async () => {},
    complete: async () => ({ choices: [] }),
    abort: (id: number) => void conn.aborted.push(id),
    tokenIds: async (t: string[]) => t.map(() => null),
    kept: async () => null,
    deleteCached: async () => {},
    terminate: () => void conn.terminated++,
    failed: new Promise<never>(() => {}),
  };
  return conn;
}

const MODEL = { kind: 'gguf-url' as const, url: 'models/x.gguf', native: false };
const BASE = 'https://site.example/app/';

describe('createWllamaGenerator', () => {
  it('loads through the connection with the site-relative address resolved, and is ready', async () => {
    let asked: unknown;
    const conn = fakeConnection(async (source) => {
      asked = source;
      return { nVocab: 100, nCtx: 4096, threads: 1, multiThread: false, chatTemplate: null };
    });
    const states: string[] = [];
    const g = createWllamaGenerator(
      { model: MODEL, baseURI: BASE },
      { connect: () => conn, onState: (s) => states.push(s) },
    );
    await g.load();
    expect(asked).toEqual({ urls: ['https://site.example/app/models/x.gguf'] });
    expect(g.state).toBe('ready');
    expect(g.runsOn()).toEqual({ engine: 'wllama', label: 'llama.cpp', device: 'cpu', threads: 1 });
    expect(g.local).toBe(true);
    expect(states).toEqual(['loading', 'ready']);
  });

  it('asks the worker to load into memory, not OPFS, when the page has no storage', async () => {
    let asked: unknown;
    const conn = fakeConnection(async (source) => {
      asked = source;
      return { nVocab: 100, nCtx: 4096, threads: 1, multiThread: false, chatTemplate: null };
    });
    await createWllamaGenerator({ model: MODEL, baseURI: BASE, noCache: true }, { connect: () => conn }).load();
    expect(asked).toEqual({ urls: ['https://site.example/app/models/x.gguf'], noCache: true });
  });

  it('turns llama.cpp\'s bare "(ABORT)" into a typed error with a way forward', async () => {
    const conn = fakeConnection(async () => {
      throw new Error('WllamaRuntimeError: (ABORT)  llama_model_load: error loading model: invalid magic');
    });
    const g = createWllamaGenerator({ model: MODEL, baseURI: BASE }, { connect: () => conn });
    const err = (await g.load().catch((e: unknown) => e)) as GeneratorError;
    expect(err).toBeInstanceOf(GeneratorError);
    expect(err.kind).toBe('bad-config');
    expect(err.message).toMatch(/GGUF model could not be loaded/);
    expect(err.suggestion).toMatch(/another model|evidence-only/);
    expect(g.state).toBe('failed');
    expect(conn.terminated).toBe(1);
  });

  it('cancels a load in progress and goes back to idle', async () => {
    const conn = fakeConnection(() => new Promise(() => {}));
    const g = createWllamaGenerator({ model: MODEL, baseURI: BASE }, { connect: () => conn });
    const loading = g.load().catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 0));
    g.cancelLoad();
    const err = (await loading) as GeneratorError;
    expect(err.kind).toBe('cancelled');
    expect(g.state).toBe('idle');
  });

  it('refuses an address that is neither https nor this site, or not a .gguf file', async () => {
    for (const url of ['http://elsewhere.example/m.gguf', 'https://hub.example/m.bin']) {
      const g = createWllamaGenerator(
        { model: { kind: 'gguf-url', url, native: false }, baseURI: BASE },
        {
          connect: () =>
            fakeConnection(async () => ({ nVocab: 1, nCtx: 1, threads: 1, multiThread: false, chatTemplate: null })),
        },
      );
      const err = (await g.load().catch((e: unknown) => e)) as GeneratorError;
      expect(err.kind).toBe('bad-config');
    }
  });
});

describe('a GGUF model kept in this browser', () => {
  const CATALOGUE = { kind: 'gguf' as const, id: 'qwen2.5-0.5b-gguf' };
  const HUB = 'https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q4_k_m.gguf';
  const SITE = 'https://site.example/app/models/gguf/qwen2.5-0.5b-instruct-q4_k_m.gguf';
  const info = { nVocab: 100, nCtx: 4096, threads: 1, multiThread: false, chatTemplate: null };
  afterEach(() => vi.unstubAllGlobals());

  /** The network is off: every request fails, as offline. */
  function offline(): string[] {
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      asked.push(String(url));
      throw new TypeError('Failed to fetch');
    });
    return asked;
  }

  /** A connection whose storage holds the model under `stored`. */
  function keeping(stored: string) {
    const loaded: unknown[] = [];
    const asked: string[][][] = [];
    const deleted: string[][] = [];
    const conn = fakeConnection(async (source) => {
      loaded.push(source);
      return info;
    });
    conn.kept = async (candidates) => {
      asked.push(candidates);
      return candidates.find((c) => c[0] === stored) ?? null;
    };
    conn.deleteCached = async (urls) => void deleted.push(urls);
    return { conn, loaded, asked, deleted };
  }

  it('loads from storage with the network off, under the site address it was stored under', async () => {
    const requests = offline();
    const { conn, loaded } = keeping(SITE);
    const g = createWllamaGenerator({ model: CATALOGUE, baseURI: BASE }, { connect: () => conn });
    await g.load();
    expect(loaded).toEqual([{ urls: [SITE] }]);
    expect(requests).toEqual([]);
    expect(g.state).toBe('ready');
  });

  it('says downloaded exactly when the load would need no network, and Delete removes every address', async () => {
    offline();
    const site = keeping(SITE);
    const g = createWllamaGenerator({ model: CATALOGUE, baseURI: BASE }, { connect: () => site.conn });
    expect(await g.hasModelInCache()).toBe(true);
    expect(site.asked.at(-1)).toEqual([[SITE], [HUB]]);
    await g.deleteModel();
    expect(site.deleted.flat().sort()).toEqual([HUB, SITE].sort());
    const none = keeping('elsewhere');
    const h = createWllamaGenerator({ model: CATALOGUE, baseURI: BASE }, { connect: () => none.conn });
    expect(await h.hasModelInCache()).toBe(false);
  });

  it('with nothing kept, asks the site for its copy and falls back to the hub', async () => {
    const requests = offline();
    const { conn, loaded } = keeping('elsewhere');
    await createWllamaGenerator({ model: CATALOGUE, baseURI: BASE }, { connect: () => conn }).load();
    expect(requests).toEqual([SITE]);
    expect(loaded).toEqual([{ urls: [HUB] }]);
  });
});

describe('engine choice from the address', () => {
  it('is Auto with the default GGUF model unless the address says otherwise', () => {
    expect(engineInput('')).toEqual({ engine: 'auto', gguf: { kind: 'gguf', id: 'qwen2.5-0.5b-gguf' } });
    expect(engineInput('?engine=wllama&gguf=llama-3.2-1b-gguf').gguf).toEqual({
      kind: 'gguf',
      id: 'llama-3.2-1b-gguf',
    });
    expect(engineInput('?engine=nonsense&gguf=models/a.gguf&ggufNative=1')).toEqual({
      engine: 'auto',
      gguf: { kind: 'gguf-url', url: 'models/a.gguf', native: true },
    });
  });
});
