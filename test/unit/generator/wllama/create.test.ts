// The llama.cpp generator handle with a stand-in connection: the states, typed
// errors and cancel the app relies on, and which engine the address picks.
import { describe, expect, it } from 'vitest';
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
    cached: async () => false,
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
