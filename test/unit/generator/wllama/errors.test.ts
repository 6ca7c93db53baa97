// llama.cpp's errors keep their kind across the worker: the worker sorts them into the
// shared kinds and sends plain data; comlink delivers it; the page gets a GeneratorError.
import * as Comlink from 'comlink';
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { GeneratorError } from '../../../../src/generator/errors';
import { errorForWire, wllamaError } from '../../../../src/generator/wllama/errors';

/** wllama's own error class, as @wllama/wllama throws it. */
class WllamaError extends Error {
  constructor(
    message: string,
    readonly type: string,
  ) {
    super(message);
    this.name = 'WllamaError';
  }
}

/** A worker side that throws what workers/wllama/host.ts throws, reached through comlink. */
function across(thrown: () => unknown, during: 'load' | 'decode', detail = ''): Promise<GeneratorError> {
  const { port1, port2 } = new MessageChannel();
  Comlink.expose(
    {
      run() {
        throw errorForWire(thrown(), during, detail);
      },
    },
    port1 as unknown as Comlink.Endpoint,
  );
  const remote = Comlink.wrap<{ run(): void }>(port2 as unknown as Comlink.Endpoint);
  return Promise.resolve(remote.run())
    .then(() => {
      throw new Error('expected a rejection');
    })
    .catch((e: unknown) => wllamaError(e))
    .finally(() => {
      port1.close();
      port2.close();
    });
}

describe("llama.cpp's errors across the worker", () => {
  it("keeps wllama's own type: a full context is 'context-too-long', not 'unknown'", async () => {
    const e = await across(() => new WllamaError('kv cache is full', 'kv_cache_full'), 'decode');
    expect(e).toBeInstanceOf(GeneratorError);
    expect(e.kind).toBe('context-too-long');
    expect(e.detail).toMatch(/kv cache is full/);
  });

  it('turns a load\'s bare "(ABORT)" with llama.cpp\'s logged reason into a damaged-model error', async () => {
    const e = await across(() => new Error('(ABORT)'), 'load', ' llama_model_load: error loading model: invalid magic');
    expect(e.kind).toBe('bad-config');
    expect(e.message).toMatch(/GGUF model could not be loaded/);
    expect(e.detail).toMatch(/invalid magic/);
  });

  it('reports a reply that is not valid UTF-8 as malformed output', async () => {
    const e = await across(() => new RangeError('Invalid typed array length: -3'), 'decode');
    expect(e.kind).toBe('malformed-output');
  });

  it('keeps an abort a cancellation', async () => {
    const e = await across(() => Object.assign(new Error('aborted'), { name: 'AbortError' }), 'decode');
    expect(e.kind).toBe('cancelled');
  });

  it('shows what was lost before: a plain Error crossing comlink arrives without its type', async () => {
    const { port1, port2 } = new MessageChannel();
    Comlink.expose(
      {
        run: () => {
          throw new WllamaError('kv cache is full', 'kv_cache_full');
        },
      },
      port1 as unknown as Comlink.Endpoint,
    );
    const remote = Comlink.wrap<{ run(): void }>(port2 as unknown as Comlink.Endpoint);
    const raw = await Promise.resolve(remote.run()).catch((e: unknown) => e);
    port1.close();
    port2.close();
    expect((raw as { type?: string }).type).toBeUndefined();
  });
});
