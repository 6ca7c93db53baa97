// The generator service: it follows the settings the controller owns (model, engine,
// temperature), keeps one handle, and derives the status panel's generator line from that
// handle's lifecycle, driven here through real handles on a fake engine driver.
import { describe, expect, it } from 'vitest';
import { defaultSettings, type AppSettings } from '../../../../src/app/persist/settings';
import { createStatusStore } from '../../../../src/app/state/worker-status';
import { createStore } from '../../../../src/app/state/store';
import {
  createGeneratorService,
  type EngineInUse,
  type GeneratorWanted,
} from '../../../../src/app/wiring/generator-service';
import type { SettingsSource } from '../../../../src/app/wiring/settings-source';
import { fakeEngine, type FakeEngine } from '../../../doubles/fake-engine-driver';

/** A catalogue model other than the default. */
const OTHER = 'qwen2.5-0.5b';

function setup(opts: { gpu?: boolean; settings?: Partial<AppSettings> } = {}) {
  const status = createStatusStore();
  const store = createStore<AppSettings>({ ...defaultSettings(), ...opts.settings });
  const settings: SettingsSource = { get: store.get, subscribe: store.subscribe };
  const made: Array<FakeEngine & { engine: EngineInUse; wanted: GeneratorWanted }> = [];
  const gpu = opts.gpu ?? true;
  const service = createGeneratorService({
    status,
    webgpu: async () => ({ ok: gpu, reason: gpu ? 'WebGPU adapter found.' : 'No WebGPU adapter.' }),
    autoEngine: async () => (gpu ? 'webllm' : 'wllama'),
    async createHandle(engine, wanted, hooks) {
      const e = Object.assign(
        fakeEngine(wanted.model.kind === 'catalogue' ? wanted.model.id : wanted.model.name, hooks, wanted.temperature),
        { engine, wanted },
      );
      made.push(e);
      return e.handle;
    },
    ggufStorage: async () => ({ hasModelInCache: async () => false, deleteModel: async () => undefined }),
  });
  service.follow(settings);
  const change = (patch: Partial<AppSettings>) => store.set({ ...store.get(), ...patch });
  const gen = () => status.get().generator;
  const tick = () => new Promise((r) => setTimeout(r, 0));
  return { status, service, made, change, gen, tick };
}

describe('generator service', () => {
  it('shows loading, then ready with the device and model, as the handle loads', async () => {
    const { service, made, gen, tick } = setup();
    expect(gen().state).toBe('idle');
    const loaded = service.generator();
    await tick();
    expect(gen().state).toBe('loading');
    made[0]!.finishLoad();
    await loaded;
    expect(gen()).toMatchObject({
      state: 'ready',
      device: 'webgpu',
      reason: 'WebGPU adapter found.',
      models: [made[0]!.name],
    });
  });

  it('loads once however many ask at the same time', async () => {
    const { service, made, tick } = setup();
    const a = service.generator();
    const b = service.generator();
    await tick();
    made[0]!.finishLoad();
    expect(await a).toBe(await b);
    expect(made).toHaveLength(1);
    expect(made[0]!.opens).toBe(1);
  });

  it('shows a failed load as an error with its message, and loads again when asked', async () => {
    const { service, made, gen, tick } = setup();
    const first = service.generator();
    await tick();
    made[0]!.failLoad(new Error('Failed to fetch'));
    await expect(first).rejects.toThrow();
    expect(gen().state).toBe('error');
    expect(gen().error).toBeTruthy();
    const again = service.generator();
    await tick();
    expect(gen().state).toBe('loading');
    made[0]!.finishLoad();
    await again;
    expect(gen().state).toBe('ready');
  });

  it('shows a lost device during an answer as an error (the lifecycle says failed)', async () => {
    const { service, made, gen, tick } = setup();
    const loaded = service.generator();
    await tick();
    made[0]!.finishLoad();
    const g = await loaded;
    made[0]!.loseDevice();
    await expect(g.write('hello')).rejects.toThrow(/device was lost/);
    expect(gen()).toMatchObject({ state: 'error', error: 'The GPU device was lost.', suggestion: 'Reload the page.' });
  });

  it('follows a new temperature on the loaded model without reloading it', async () => {
    const { service, made, change, tick } = setup();
    const loaded = service.generator();
    await tick();
    made[0]!.finishLoad();
    await loaded;
    change({ temperature: 0.7 });
    expect(made[0]!.temperatures).toEqual([0, 0.7]);
    expect(made).toHaveLength(1);
  });

  it('lets go of the loaded model when the model setting changes, and loads the new one on the next question', async () => {
    const { service, made, change, gen, tick } = setup();
    const loaded = service.generator();
    await tick();
    made[0]!.finishLoad();
    await loaded;
    const other = OTHER;
    change({ model: other, temperature: 0.3 });
    await tick();
    expect(made[0]!.disposed).toBe(true);
    expect(gen().state).toBe('idle');
    const next = service.generator();
    await tick();
    made[1]!.finishLoad();
    await next;
    expect(made[1]!.wanted).toMatchObject({ model: { kind: 'catalogue', id: other }, temperature: 0.3 });
    expect(gen()).toMatchObject({ state: 'ready', models: [other] });
  });

  it('ignores what a dropped model reports: a load overtaken by a new choice does not show as ready', async () => {
    const { service, change, gen, tick } = setup();
    const first = service.generator();
    await tick();
    change({ model: OTHER });
    await expect(first).rejects.toThrow();
    expect(gen().state).toBe('idle');
  });

  it('keeps the loaded model when a setting it does not use changes', async () => {
    const { service, made, change, tick } = setup();
    const loaded = service.generator();
    await tick();
    made[0]!.finishLoad();
    await loaded;
    change({ theme: 'dark' });
    expect(made[0]!.disposed).toBe(false);
    expect(service.current()).toBe(made[0]!.handle);
  });

  it("writes with the engine the settings name (an address's engine is in them from load on), and follows a new pick", async () => {
    const { service, made, change, tick } = setup({
      settings: { engine: { ...defaultSettings().engine, engine: 'wllama' } },
    });
    expect(service.engine.get().choice.engine).toBe('wllama');
    service.generator().catch(() => undefined);
    await tick();
    expect(made[0]!.engine).toBe('wllama');
    change({ engine: { ...defaultSettings().engine, engine: 'webllm' } });
    expect(service.engine.get().choice.engine).toBe('webllm');
    service.generator().catch(() => undefined);
    await tick();
    expect(made[1]!.engine).toBe('webllm');
  });

  it('without WebGPU, says Auto answers with llama.cpp on the CPU and offers to load; web-llm alone is unavailable', async () => {
    const { service, change, gen, tick } = setup({ gpu: false });
    service.start();
    await tick();
    // Auto (the default) falls back to llama.cpp: the model can still be loaded.
    expect(gen().state).toBe('idle');
    expect(gen().reason).toMatch(/^No WebGPU adapter\. .*llama\.cpp on the CPU/);
    change({ model: OTHER });
    await tick();
    expect(gen().state).toBe('idle');
    // Choosing web-llm, which needs WebGPU, says it cannot run here and what to choose instead.
    change({ engine: { ...defaultSettings().engine, engine: 'webllm' } });
    await tick();
    expect(gen()).toMatchObject({ state: 'unavailable' });
    expect(gen().reason).toMatch(/web-llm needs WebGPU: choose Auto or llama\.cpp/);
    change({ model: defaultSettings().model });
    await tick();
    expect(gen().state).toBe('unavailable');
    // Back to Auto: loadable again.
    change({ engine: defaultSettings().engine });
    await tick();
    expect(gen().state).toBe('idle');
  });

  it('unloads the model before deleting it, and shows the generator idle', async () => {
    const { service, made, gen, tick } = setup();
    const loaded = service.generator();
    await tick();
    made[0]!.finishLoad();
    await loaded;
    await service.models.remove({ kind: 'catalogue', id: made[0]!.name });
    expect(made[0]!.deleted).toBe(1);
    expect(made[0]!.disposed).toBe(true);
    expect(gen().state).toBe('idle');
  });
});
