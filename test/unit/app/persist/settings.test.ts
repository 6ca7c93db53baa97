import { describe, expect, it } from 'vitest';
import { DEFAULT_DECODE_SETTINGS } from '../../../../src/core/defaults';
import {
  decodeChanges,
  defaultSettings,
  loadSettings,
  saveSettings,
  SETTINGS_KEY,
} from '../../../../src/app/persist/settings';

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    data,
  };
}

describe('settings store', () => {
  it('round-trips saved settings', () => {
    const store = memoryStorage();
    const s = defaultSettings();
    s.rank.weights.sup = 2.5;
    s.decode.beamWidth = 3;
    s.theme = 'dark';
    saveSettings(store, s);
    expect(loadSettings(store)).toEqual(s);
  });

  it('gives settings saved before the cost levers the new defaults, and keeps a saved gate and stop switch', () => {
    const old = loadSettings(
      memoryStorage({
        [SETTINGS_KEY]: JSON.stringify({ version: 1, settings: { decode: { beamWidth: 3, critiqueSource: 'auto' } } }),
      }),
    );
    expect(old.decode).toMatchObject({
      beamWidth: 3,
      critiqueSource: 'auto',
      relevanceGate: DEFAULT_DECODE_SETTINGS.relevanceGate,
      stopAtFirstAnswer: true,
    });
    const mine = loadSettings(
      memoryStorage({
        [SETTINGS_KEY]: JSON.stringify({
          version: 1,
          settings: { decode: { relevanceGate: 0.2, stopAtFirstAnswer: false } },
        }),
      }),
    );
    expect(mine.decode).toMatchObject({ relevanceGate: 0.2, stopAtFirstAnswer: false });
    const bad = loadSettings(
      memoryStorage({
        [SETTINGS_KEY]: JSON.stringify({
          version: 1,
          settings: { decode: { relevanceGate: 3, stopAtFirstAnswer: 'yes' } },
        }),
      }),
    );
    expect(bad.decode).toMatchObject({ relevanceGate: DEFAULT_DECODE_SETTINGS.relevanceGate, stopAtFirstAnswer: true });
  });

  it('keeps the good fields and replaces each bad one with its default', () => {
    const store = memoryStorage({
      [SETTINGS_KEY]: JSON.stringify({
        version: 1,
        settings: {
          decode: { beamWidth: 2.5, threshold: 7, mode: 'always', passagesPerStep: '4' },
          rank: { weights: { rel: 'x', sup: 1.7 }, hardConstraints: 'maybe' },
          theme: '<script>',
          model: 'not-a-model',
        },
      }),
    });
    const s = loadSettings(store);
    expect(s.decode.mode).toBe('always');
    expect(s.decode.passagesPerStep).toBe(4);
    expect(s.decode.beamWidth).toBe(DEFAULT_DECODE_SETTINGS.beamWidth);
    expect(s.decode.threshold).toBe(DEFAULT_DECODE_SETTINGS.threshold);
    expect(s.rank.weights.sup).toBe(1.7);
    expect(s.rank.weights.rel).toBe(defaultSettings().rank.weights.rel);
    expect(s.rank.hardConstraints).toBe(false);
    expect(s.theme).toBe('system');
    expect(s.model).toBe(defaultSettings().model);
  });

  it('falls back to defaults on corrupt JSON, another version, or a throwing storage', () => {
    expect(loadSettings(memoryStorage({ [SETTINGS_KEY]: '{nope' }))).toEqual(defaultSettings());
    expect(
      loadSettings(memoryStorage({ [SETTINGS_KEY]: JSON.stringify({ version: 99, settings: { theme: 'dark' } }) })),
    ).toEqual(defaultSettings());
    const throwing = {
      getItem: () => {
        throw new Error('denied');
      },
    };
    expect(loadSettings(throwing)).toEqual(defaultSettings());
  });

  it('keeps CRAG settings and the index kind, and never a contradictory threshold pair', () => {
    const store = memoryStorage();
    const s = defaultSettings();
    s.crag = {
      upper: 0.8,
      lower: 0.1,
      stripThreshold: 0.4,
      noEvidence: 'abstain',
      externalEnabled: true,
      stripPool: 'across-passages',
      sentencesPerStrip: 3,
    };
    s.indexKind = 'voy';
    saveSettings(store, s);
    expect(loadSettings(store)).toEqual(s);

    const bad = memoryStorage({
      [SETTINGS_KEY]: JSON.stringify({
        version: 1,
        settings: {
          crag: {
            upper: 0.3,
            lower: 0.6,
            stripThreshold: 2,
            noEvidence: 'guess',
            externalEnabled: 'yes',
            stripPool: 'everywhere',
            sentencesPerStrip: 2.5,
          },
          indexKind: 'hnsw',
        },
      }),
    });
    const loaded = loadSettings(bad);
    expect(loaded.crag).toEqual(defaultSettings().crag);
    expect(loaded.crag.externalEnabled).toBe(false);
    expect(loaded.indexKind).toBe('auto');
  });

  it("defaults the index to 'auto'; a 'flat' saved before 'auto' existed gets it, one chosen since is kept", () => {
    expect(defaultSettings().indexKind).toBe('auto');
    const old = memoryStorage({
      [SETTINGS_KEY]: JSON.stringify({
        version: 1,
        settings: { ...defaultSettings(), indexKind: 'flat', temperature: 0.5 },
      }),
    });
    expect(loadSettings(old)).toMatchObject({ indexKind: 'auto', temperature: 0.5 });
    const oldVoy = memoryStorage({
      [SETTINGS_KEY]: JSON.stringify({ version: 1, settings: { ...defaultSettings(), indexKind: 'voy' } }),
    });
    expect(loadSettings(oldVoy).indexKind).toBe('voy');
    const store = memoryStorage();
    saveSettings(store, { ...defaultSettings(), indexKind: 'flat' });
    expect(loadSettings(store).indexKind).toBe('flat');
  });

  it('keeps the engine and GGUF model across a reload; a bad stored engine field loses nothing else', () => {
    const store = memoryStorage();
    const s = defaultSettings();
    s.engine = {
      engine: 'wllama',
      gguf: { kind: 'gguf-url', url: 'https://models.example/selfrag.gguf', native: true },
    };
    s.theme = 'dark';
    saveSettings(store, s);
    expect(loadSettings(store)).toEqual(s);

    const bad = memoryStorage({
      [SETTINGS_KEY]: JSON.stringify({
        version: 1,
        settings: {
          theme: 'dark',
          decode: { beamWidth: 3 },
          engine: { engine: 'tpu', gguf: { kind: 'gguf-url', url: 'ftp://x.example/a.gguf' } },
        },
      }),
    });
    const loaded = loadSettings(bad);
    expect(loaded.engine).toEqual(defaultSettings().engine);
    expect(loaded.theme).toBe('dark');
    expect(loaded.decode.beamWidth).toBe(3);
    // Each half of the choice stands alone.
    const half = memoryStorage({
      [SETTINGS_KEY]: JSON.stringify({ version: 1, settings: { engine: { engine: 'webllm', gguf: 7 } } }),
    });
    expect(loadSettings(half).engine).toEqual({ engine: 'webllm', gguf: defaultSettings().engine.gguf });
  });

  it('lists the decode settings that changed', () => {
    const a = defaultSettings().decode;
    expect(decodeChanges(a, { ...a })).toEqual([]);
    expect(decodeChanges(a, { ...a, beamWidth: a.beamWidth + 1, threshold: 0.9 }).sort()).toEqual([
      'beamWidth',
      'threshold',
    ]);
  });
});
