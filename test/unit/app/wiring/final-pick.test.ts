import { PAPER_DECODE_SETTINGS } from '../../../../src/core/defaults';
import { describe, expect, it } from 'vitest';
import { createController } from '../../../../src/app/wiring/controller';
import { defaultSettings, loadSettings } from '../../../../src/app/persist/settings';
import { decode } from '../../../../src/core/decode';
import { rerank } from '../../../../src/core/rerank';
import { FakeRetriever, passage } from '../../../doubles/fake-retriever';
import { ScriptedGenerator, scriptKey } from '../../../doubles/scripted-generator';

describe('the final-pick setting', () => {
  it("switches to the reference's rule by re-ranking alone, without a model call, and is kept", async () => {
    const settings = defaultSettings();
    // The paper's full search: stopping at the first answer would leave B unwritten, and nothing to switch to.
    settings.decode = {
      ...settings.decode,
      ...PAPER_DECODE_SETTINGS,
      mode: 'always',
      passagesPerStep: 2,
      beamWidth: 2,
      maxDepth: 3,
    };
    const saved = new Map<string, string>();
    // A ends at once, relevant and supported; B goes on with a weak second segment.
    const gen = new ScriptedGenerator({
      segments: {
        [scriptKey([], 'pa')]: {
          text: 'A',
          rel: { relevant: 0.9, irrelevant: 0.1 },
          sup: { full: 1, partial: 0, none: 0 },
          use: [0, 0, 0, 0, 1],
          done: true,
        },
        [scriptKey([], 'pb')]: {
          text: 'B',
          rel: { relevant: 0.8, irrelevant: 0.2 },
          sup: { full: 1, partial: 0, none: 0 },
          use: [0, 0, 0, 0, 1],
        },
        [scriptKey(['B'], 'pa')]: {
          text: 'B1',
          rel: { relevant: 0.1, irrelevant: 0.9 },
          sup: { full: 0, partial: 0, none: 1 },
          use: [1, 0, 0, 0, 0],
          done: true,
        },
        [scriptKey(['B'], 'pb')]: {
          text: 'B2',
          rel: { relevant: 0.2, irrelevant: 0.8 },
          sup: { full: 0, partial: 0.2, none: 0.8 },
          use: [1, 0, 0, 0, 0],
          done: true,
        },
      },
    });
    const docs = [passage('pa', 'Tides follow the moon.'), passage('pb', 'The moon pulls the sea.')];
    const c = createController({
      ports: {
        generator: async () => gen,
        retriever: async () => new FakeRetriever(() => docs.map((p, i) => ({ ...p, score: 1 - i / 10 }))),
        critic: async () => undefined,
      },
      decode,
      rerank,
      settings,
      storage: { setItem: (k, v) => void saved.set(k, v) },
    });
    await c.ask('Why are there tides?');
    const texts = () => c.getState().answer.ranking!.best.map((b) => b.candidate.text);
    expect(texts()).toEqual(['A']);
    const calls = gen.calls.length;
    c.change({ rank: { ...c.getState().settings.rank, finalPick: 'deepest-level' } });
    expect(texts()).toEqual(['B', 'B2']);
    expect(gen.calls.length).toBe(calls);
    expect(c.pendingDecodeChanges()).toEqual([]);
    expect(loadSettings({ getItem: (k) => saved.get(k) ?? null }).rank.finalPick).toBe('deepest-level');
  });
});
