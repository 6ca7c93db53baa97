// The model picker's settings: custom models (validated, persisted), the
// temperature (persisted, a "needs a new answer" setting), the downloaded marks.
import { describe, expect, it } from 'vitest';
import { createController } from '../../../../src/app/wiring/controller';
import {
  checkCustomModel,
  choiceKey,
  modelChoice,
  smallestModelId,
  urlProblem,
} from '../../../../src/app/persist/custom-model';
import { createModelCacheStore } from '../../../../src/app/wiring/model-downloads';
import {
  defaultSettings,
  loadSettings,
  sanitizeSettings,
  saveSettings,
  SETTINGS_KEY,
} from '../../../../src/app/persist/settings';
import { decode } from '../../../../src/core/decode';
import { rerank } from '../../../../src/core/rerank';
import { CATALOGUE, type ModelChoice } from '../../../../src/generator/catalogue';
import { createGenerator, type Connect } from '../../../../src/generator/webllm/create';
import type { ChatEngine } from '../../../../src/generator/webllm/engine';
import { ScriptedEngine } from '../../../doubles/scripted-engine';
import { syntheticGenerator, syntheticRetriever } from '../../../doubles/synthetic-answer';

const PAGE = 'http://localhost:5173/app/';
const selfrag = {
  name: 'selfrag_llama2_7b-q4f16_1-MLC',
  weightsUrl: 'https://models.example/selfrag/',
  libUrl: 'https://models.example/selfrag.wasm',
  native: true,
};

function memoryStorage() {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), map };
}

describe('custom model form', () => {
  it('accepts https and same-origin addresses, including paths on the site', () => {
    expect(checkCustomModel(selfrag, PAGE)).toEqual({ model: selfrag });
    const local = checkCustomModel(
      { ...selfrag, weightsUrl: 'models/selfrag/', libUrl: 'http://localhost:5173/libs/selfrag.wasm' },
      PAGE,
    );
    expect(local).toEqual({
      model: { ...selfrag, weightsUrl: 'models/selfrag/', libUrl: 'http://localhost:5173/libs/selfrag.wasm' },
    });
  });

  it('refuses plain http elsewhere, other schemes, empty and malformed addresses with a message naming the field', () => {
    const bad = (weightsUrl: string, libUrl = selfrag.libUrl) =>
      checkCustomModel({ ...selfrag, weightsUrl, libUrl }, PAGE);
    expect(bad('http://models.example/selfrag/')).toEqual({
      problem: expect.stringMatching(/weights URL must start with https:\/\//),
    });
    expect(bad('javascript:alert(1)')).toEqual({ problem: expect.stringMatching(/weights URL must start with https/) });
    expect(bad('data:text/plain,x')).toEqual({ problem: expect.stringMatching(/weights URL/) });
    expect(bad('   ')).toEqual({ problem: 'The weights URL is missing.' });
    expect(bad('https://ok.example/', 'http://[bad')).toEqual({
      problem: expect.stringMatching(/model library URL .* is not a valid address/),
    });
    expect(bad('https://ok.example/', 'ftp://models.example/x.wasm')).toEqual({
      problem: expect.stringMatching(/model library URL must start with https/),
    });
    expect(urlProblem('weights URL', 'http://localhost:9999/x/', PAGE)).toMatch(/https/);
  });

  it('needs a usable name that does not shadow a catalogue model', () => {
    expect(checkCustomModel({ ...selfrag, name: ' ' }, PAGE)).toEqual({
      problem: expect.stringMatching(/Give the model a name/),
    });
    expect(checkCustomModel({ ...selfrag, name: '<img src=x>' }, PAGE)).toEqual({
      problem: expect.stringMatching(/letters, digits/),
    });
    expect(checkCustomModel({ ...selfrag, name: CATALOGUE[0]!.builds.f16.modelId }, PAGE)).toEqual({
      problem: expect.stringMatching(/already a model in the list/),
    });
  });
});

describe('model settings', () => {
  it('persists a custom model and the temperature across a reload', () => {
    const storage = memoryStorage();
    const s = { ...defaultSettings(), model: 'custom', customModel: selfrag, temperature: 0.7 };
    saveSettings(storage, s);
    const back = loadSettings(storage);
    expect(back.model).toBe('custom');
    expect(back.customModel).toEqual(selfrag);
    expect(back.temperature).toBe(0.7);
    expect(modelChoice(back.model, back.customModel)).toEqual({ kind: 'custom', ...selfrag });
  });

  it('drops a tampered custom model and falls back from "custom" to the default model, keeping the other settings', () => {
    const raw = {
      ...defaultSettings(),
      model: 'custom',
      customModel: { ...selfrag, weightsUrl: 'http://evil.example/' },
      temperature: 0.4,
    };
    const s = sanitizeSettings(raw, defaultSettings(), PAGE);
    expect(s.customModel).toBeNull();
    expect(s.model).toBe(defaultSettings().model);
    expect(s.temperature).toBe(0.4);
  });

  it('keeps the default temperature (0, deterministic) for out-of-range or non-numeric values', () => {
    for (const t of [-0.1, 2.5, 'hot', null, Number.NaN]) {
      expect(sanitizeSettings({ temperature: t }).temperature).toBe(0);
    }
    expect(sanitizeSettings({ temperature: '1.2' }).temperature).toBe(1.2);
    expect(defaultSettings().temperature).toBe(0);
  });

  it('the smaller-model way forward picks the catalogue model with the least memory', () => {
    const id = smallestModelId();
    const min = Math.min(...CATALOGUE.map((m) => m.builds.f32.vramMB));
    expect(CATALOGUE.find((m) => m.id === id)!.builds.f32.vramMB).toBe(min);
  });
});

describe('controller: model settings', () => {
  function setup() {
    const storage = memoryStorage();
    const c = createController({
      ports: {
        generator: async () => syntheticGenerator(),
        retriever: async () => syntheticRetriever(),
        critic: async () => undefined,
      },
      decode,
      rerank,
      settings: { ...defaultSettings(), decode: { ...defaultSettings().decode, mode: 'always', maxDepth: 2 } },
      storage,
    });
    return { c, storage };
  }

  it('a temperature change asks for a new answer; a custom model is saved and selected', async () => {
    const { c, storage } = setup();
    await c.ask('Why are there tides?');
    expect(c.getState().answer.status).toBe('done');
    expect(c.pendingDecodeChanges()).toEqual([]);
    c.change({ temperature: 0.8 });
    expect(c.pendingDecodeChanges()).toEqual(['temperature']);
    c.change({ customModel: selfrag, model: 'custom' });
    const stored = JSON.parse(storage.map.get(SETTINGS_KEY)!).settings;
    expect(stored).toMatchObject({ model: 'custom', customModel: selfrag, temperature: 0.8 });
    // Resetting the tuning keeps the model choice and its temperature.
    c.resetSettings();
    expect(c.getState().settings).toMatchObject({ model: 'custom', customModel: selfrag, temperature: 0.8 });
  });
});

describe('downloaded marks', () => {
  const qwen: ModelChoice = { kind: 'catalogue', id: 'qwen2.5-0.5b' };

  it('marks downloaded models, follows a delete, and refuses to delete the model being loaded', async () => {
    const cached = new Set(['qwen2.5-0.5b', choiceKey({ kind: 'custom', ...selfrag })]);
    let loading: string | null = null;
    const store = createModelCacheStore({
      has: async (c) => cached.has(choiceKey(c)),
      remove: async (c) => void cached.delete(choiceKey(c)),
      loadingKey: () => loading,
    });
    await store.refresh([{ kind: 'custom', ...selfrag }]);
    const marks = store.get().marks;
    expect(Object.keys(marks)).toHaveLength(CATALOGUE.length + 1);
    expect(
      Object.entries(marks)
        .filter(([, v]) => v)
        .map(([k]) => k)
        .sort(),
    ).toEqual([...cached].sort());

    loading = 'qwen2.5-0.5b';
    await store.remove(qwen);
    expect(store.get().error).toMatch(/loading/);
    expect(cached.has('qwen2.5-0.5b')).toBe(true);

    loading = null;
    await store.remove(qwen);
    expect(store.get().marks['qwen2.5-0.5b']).toBe(false);
    expect(store.get().error).toBeNull();
  });

  it('reports a failed delete and leaves the marks true to the cache', async () => {
    const store = createModelCacheStore({
      has: async () => true,
      remove: async () => {
        throw new Error('QuotaExceededError');
      },
      loadingKey: () => null,
    });
    await store.remove(qwen);
    expect(store.get().error).toMatch(/could not be deleted: QuotaExceededError/);
    expect(store.get().marks['qwen2.5-0.5b']).toBe(true);
  });
});

describe('generator temperature', () => {
  it('changes sampling for the next calls without reloading the model', async () => {
    const engines: ScriptedEngine[] = [];
    const connect: Connect = (model, appConfig) => {
      const engine = new ScriptedEngine();
      engines.push(engine);
      engine.setAppConfig(appConfig);
      return {
        ready: engine.reload(model.modelId).then(() => ({ engine: engine as unknown as ChatEngine, terminate() {} })),
        terminate() {},
      };
    };
    const g = createGenerator(
      { baseURI: 'https://host.example/', source: 'hub' },
      { connect, detectGpu: async () => ({ shaderF16: false }) },
    );
    await g.load();
    await g.write('Say hello.');
    g.setTemperature(0.9);
    await g.write('Say hello.');
    expect(engines).toHaveLength(1);
    const calls = engines[0]!.calls;
    expect(calls[0]!.topP).toBeLessThanOrEqual(1e-3); // greedy
    expect(calls[1]).toMatchObject({ temperature: 0.9, topP: 1 });
    expect(() => g.setTemperature(-1)).toThrow(/Temperature/);
  });
});
