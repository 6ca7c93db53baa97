import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../../src/app/persist/settings';
import { readUrlState, writeUrlState } from '../../../../src/app/persist/url-state';

describe('URL state', () => {
  it('a shared link reproduces the question and settings', () => {
    const s = defaultSettings();
    s.rank.weights.sup = 2;
    s.rank.hardConstraints = true;
    s.rank.finalPick = 'deepest-level';
    s.decode.critiqueSource = 'blend';
    s.decode.passagesPerStep = 5;
    const search = writeUrlState('?embedOrigin=https%3A%2F%2Fa.example', 'Why do tides happen?', s);
    const back = readUrlState(search, defaultSettings());
    expect(back.question).toBe('Why do tides happen?');
    expect(back.settings.rank).toEqual(s.rank);
    expect(back.settings.decode).toEqual(s.decode);
    expect(new URLSearchParams(search).get('embedOrigin')).toBe('https://a.example');
    expect(new URLSearchParams(search).get('pick')).toBe('deepest-level');
    expect(readUrlState('?pick=shortest', s).settings.rank.finalPick).toBe('deepest-level');
  });

  it("a follow-up's link carries the question as typed and what it was searched by; the searched form alone is never the question", () => {
    const s = defaultSettings();
    const search = writeUrlState('', 'And how do I close it?', s, 'And how do I close it? How do I open a file?');
    expect(readUrlState(search, s)).toMatchObject({
      question: 'And how do I close it?',
      searched: 'And how do I close it? How do I open a file?',
    });
    // A question searched as typed carries nothing more, and a stale searched form goes.
    const plain = writeUrlState(search, 'Why do tides happen?', s, 'Why do tides happen?');
    expect(new URLSearchParams(plain).has('sq')).toBe(false);
    expect(readUrlState('?sq=orphan', s)).toMatchObject({ question: null, searched: null });
  });

  it('links the CRAG thresholds and no-evidence choice, but never switches on the outside source', () => {
    const s = defaultSettings();
    s.corrective = true;
    s.crag = {
      upper: 0.7,
      lower: 0.2,
      stripThreshold: 0.3,
      noEvidence: 'abstain',
      externalEnabled: true,
      stripPool: 'across-passages',
      sentencesPerStrip: 3,
    };
    const search = writeUrlState('', 'q', s);
    expect(new URLSearchParams(search).get('cnoev')).toBe('abstain');
    expect(new URLSearchParams(search).get('cpool')).toBe('across-passages');
    expect(new URLSearchParams(search).get('csent')).toBe('3');
    const reader = readUrlState(search, defaultSettings());
    expect(reader.settings.corrective).toBe(true);
    expect(reader.settings.crag).toEqual({ ...s.crag, externalEnabled: false });
    // A reader who turned it on keeps their own choice.
    const mine = defaultSettings();
    mine.crag.externalEnabled = true;
    expect(readUrlState('?cup=0.6', mine).settings.crag).toMatchObject({ upper: 0.6, externalEnabled: true });
    // A contradictory linked pair keeps the reader's thresholds.
    expect(readUrlState('?cup=0.2&clow=0.9&cnoev=nonsense', mine).settings.crag).toEqual(mine.crag);
  });

  it("invalid linked values keep the reader's own settings", () => {
    const mine = defaultSettings();
    mine.rank.weights.rel = 0.3;
    const back = readUrlState('?wrel=NaN&beam=-1&mode=everything&wsup=1.5', mine);
    expect(back.settings.rank.weights.rel).toBe(0.3);
    expect(back.settings.rank.weights.sup).toBe(1.5);
    expect(back.settings.decode.beamWidth).toBe(mine.decode.beamWidth);
    expect(back.settings.decode.mode).toBe(mine.decode.mode);
    expect(back.question).toBeNull();
  });
});

describe('engine in a link', () => {
  it("never changes (or stores) the reader's own engine and GGUF model, and a shared link does not carry them", () => {
    const mine = defaultSettings();
    mine.engine = { engine: 'webllm', gguf: { kind: 'gguf-url', url: 'https://mine.example/m.gguf', native: false } };
    const back = readUrlState('?engine=wllama&gguf=https%3A%2F%2Fevil.example%2Fa.gguf&ggufNative=1', mine);
    expect(back.settings.engine).toEqual(mine.engine);
    expect(writeUrlState('', 'q', mine)).not.toMatch(/engine|gguf/);
  });
});

describe('model parameters', async () => {
  const { evaluatorInput } = await import('../../../../src/app/wiring/evaluator-config');
  it('reads a local model pack and an evaluator device, ignoring unsafe names', () => {
    expect(evaluatorInput('?modelPack=tiny&evaluatorDevice=wasm')).toEqual({
      source: 'local',
      embedder: 'tiny/embedder',
      reranker: 'tiny/reranker',
      nli: 'tiny/nli',
      device: 'wasm',
    });
    expect(evaluatorInput('?modelPack=../x&evaluatorDevice=gpu')).toEqual({});
  });

  it("judges with the site's own critic unless the address asks for the hub's", async () => {
    const { DEFAULT_EVALUATOR_CONFIG, HUB_NLI, HUB_RERANKER, SHIPPED_NLI, SHIPPED_RERANKER, resolveEvaluatorConfig } =
      await import('../../../../src/evaluator/config');
    expect([DEFAULT_EVALUATOR_CONFIG.reranker.id, DEFAULT_EVALUATOR_CONFIG.nli.id]).toEqual([
      SHIPPED_RERANKER,
      SHIPPED_NLI,
    ]);
    const hub = resolveEvaluatorConfig(evaluatorInput('?critic=hub'), 'https://example.org/rag/');
    expect([hub.reranker.id, hub.nli.id]).toEqual([HUB_RERANKER, HUB_NLI]);
    expect(evaluatorInput('?critic=other')).toEqual({});
  });
});
