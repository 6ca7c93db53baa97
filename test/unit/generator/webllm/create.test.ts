import { describe, expect, it } from 'vitest';
import type { Passage } from '../../../../src/core/ports';
import type { ChatEngine } from '../../../../src/generator/webllm/engine';
import {
  createGenerator,
  type Connect,
  type WebllmHooks as GeneratorHooks,
} from '../../../../src/generator/webllm/create';
import type { LoadProgress } from '../../../../src/generator/progress';
import type { GeneratorError } from '../../../../src/generator/errors';
import { ScriptedEngine, type ScriptedReply } from '../../../doubles/scripted-engine';

const passage: Passage = { id: 'd#0', docId: 'd', title: 'Lyon', text: 'Lyon is a city in France.', index: 0 };

/** Connects to a scripted engine the way the worker client does: reload() through the app config. */
function fakeConnect(
  script?: ScriptedReply[],
  gate?: Promise<void>,
  tokenDelayMs = 0,
): { connect: Connect; engines: ScriptedEngine[]; terminated: number[] } {
  const engines: ScriptedEngine[] = [];
  const terminated: number[] = [];
  const connect: Connect = (model, appConfig, onReport) => {
    const engine = new ScriptedEngine({ ...(script ? { script } : {}), tokenDelayMs });
    const n = engines.push(engine);
    engine.setAppConfig(appConfig);
    engine.setInitProgressCallback(onReport);
    const ready = (async () => {
      await gate;
      await engine.reload(model.modelId);
      return { engine: engine as unknown as ChatEngine, terminate: () => terminated.push(n) };
    })();
    return { ready, terminate: () => terminated.push(n) };
  };
  return { connect, engines, terminated };
}

const noF16: GeneratorHooks['detectGpu'] = async () => ({ shaderF16: false });
const base = { baseURI: 'https://host.example/app/', source: 'hub' as const };

describe('createGenerator', () => {
  it('loads with progress (fraction, bytes, stage) and picks q4f32 without shader-f16', async () => {
    const { connect } = fakeConnect();
    const progress: LoadProgress[] = [];
    const g = createGenerator(base, { connect, detectGpu: noF16, onProgress: (p) => progress.push(p) });
    expect(g.state).toBe('idle');
    await g.load();
    expect(g.state).toBe('ready');
    expect(g.modelId).toBe('Qwen2.5-1.5B-Instruct-q4f32_1-MLC');
    expect(progress.map((p) => p.stage)).toEqual(
      expect.arrayContaining(['checking', 'downloading', 'compiling', 'ready']),
    );
    expect(progress.find((p) => p.stage === 'downloading')!.loadedBytes).toBe(12 * 1024 * 1024);
    expect(progress.at(-1)!.fraction).toBe(1);
  });

  it('answers through the ports once loaded, and refuses clearly before', async () => {
    const { connect } = fakeConnect();
    const g = createGenerator(base, { connect, detectGpu: noF16 });
    await expect(g.generateSegments([{ question: 'q', previous: [], passage }])).rejects.toMatchObject({
      kind: 'bad-config',
      message: /not loaded/,
    });
    await g.load();
    const [s] = await g.generateSegments([{ question: 'Where is Lyon?', previous: [], passage }]);
    expect(s!.text).toBe('Lyon is a city in France.');
    // The answer turn and one critique turn each for utility, relevance and support.
    expect(g.cost().calls).toBe(4);
  });

  it('cancels a load: the worker is stopped, the state returns to idle, and a later load works', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const { connect, terminated } = fakeConnect(undefined, gate);
    const states: string[] = [];
    const g = createGenerator(base, { connect, detectGpu: noF16, onState: (s) => states.push(s) });
    const loading = g.load();
    await new Promise((r) => setTimeout(r, 5));
    g.cancelLoad();
    await expect(loading).rejects.toMatchObject({ kind: 'cancelled' });
    expect(terminated).toEqual([1]);
    expect(g.state).toBe('idle');
    open();
    await g.load();
    expect(g.state).toBe('ready');
    expect(states).toEqual(['loading', 'idle', 'loading', 'ready']);
  });

  it('reports no WebGPU with a way forward, without starting a worker', async () => {
    const { connect, engines } = fakeConnect();
    const g = createGenerator(base, { connect });
    const err = (await g.load().catch((e: unknown) => e)) as GeneratorError;
    expect(err.kind).toBe('no-webgpu');
    expect(err.suggestion).toMatch(/evidence-only/);
    expect(engines).toHaveLength(0);
    expect(g.state).toBe('failed');
  });

  it('reports a failed download as such', async () => {
    const { connect } = fakeConnect();
    const g = createGenerator(
      {
        ...base,
        model: { kind: 'custom', name: 'mine', weightsUrl: 'w/#fail=download', libUrl: 'l.wasm', native: false },
      },
      { connect, detectGpu: noF16 },
    );
    await expect(g.load()).rejects.toMatchObject({ kind: 'download' });
    expect(g.state).toBe('failed');
  });

  it('after a device lost mid-answer: a clear error, state failed, and a reload recovers', async () => {
    const { connect, terminated } = fakeConnect([
      { error: 'Error: Device was lost. Instance reference no longer exists.' },
      { text: 'Lyon is in France.', slots: {} },
    ]);
    const states: [string, string | undefined][] = [];
    const g = createGenerator(base, { connect, detectGpu: noF16, onState: (s, e) => states.push([s, e?.kind]) });
    await g.load();
    await expect(g.generateSegments([{ question: 'q', previous: [], passage }])).rejects.toMatchObject({
      kind: 'device-lost',
    });
    expect(g.state).toBe('failed');
    expect(states.at(-1)).toEqual(['failed', 'device-lost']);
    expect(terminated).toEqual([1]);
    expect(g.cost().calls).toBe(1); // work done before the loss still counts
    await g.load();
    expect(g.state).toBe('ready');
  });

  it("requires the local model pack when told to, and says so in an end user's words (no build command)", async () => {
    const { connect } = fakeConnect();
    const g = createGenerator({ ...base, source: 'local' }, { connect, detectGpu: noF16 });
    const err = (await g.load().catch((e: unknown) => e)) as GeneratorError;
    expect(err.kind).toBe('download');
    expect(err.message).toMatch(/does not include the model/);
    expect(`${err.message} ${err.suggestion}`).not.toMatch(/npm|--generator/);
  });

  it('settles a call in flight when the model is unloaded, instead of leaving the answer waiting forever', async () => {
    const { connect } = fakeConnect(undefined, undefined, 1000);
    const g = createGenerator(base, { connect, detectGpu: noF16 });
    await g.load();
    const pending = g.generateSegments([{ question: 'Where is Lyon?', previous: [], passage }]);
    await new Promise((r) => setTimeout(r, 5));
    await g.dispose();
    await expect(pending).rejects.toMatchObject({ kind: 'cancelled', message: /unloaded while it was answering/ });
    expect(g.state).toBe('idle');
  });
});
