// The evaluator service: started once on first use, its status line derived from what it
// reports (start, model progress, the embedder's load), and Try again after either failure.
import { describe, expect, it } from 'vitest';
import { createStatusStore } from '../../../../src/app/state/worker-status';
import { createEvaluatorService, type EvaluatorStarter } from '../../../../src/app/wiring/evaluator-service';
import type { EvaluatorProgress } from '../../../../src/evaluator/config';
import { fakeEvaluator, type FakeEvaluator } from '../../../doubles/fake-evaluator';

function setup(opts: { startFails?: Error } = {}) {
  const status = createStatusStore();
  const fake = fakeEvaluator();
  let starts = 0;
  let failStart = opts.startFails ?? null;
  let report: Parameters<EvaluatorStarter['start']>[0] | undefined;
  const service = createEvaluatorService(status, {
    async start(r) {
      starts++;
      report = r;
      if (failStart) throw failStart;
      return { evaluator: fake.evaluator, embedderModel: 'Xenova/all-MiniLM-L6-v2' };
    },
    devices: () => ({ device: 'wasm', reason: 'No WebGPU adapter.' }),
  });
  const tick = () => new Promise((r) => setTimeout(r, 0));
  return {
    status,
    service,
    fake: fake as FakeEvaluator,
    starts: () => starts,
    progress: (p: Partial<EvaluatorProgress>) =>
      report!.onProgress({
        role: 'embedder',
        model: 'Xenova/all-MiniLM-L6-v2',
        status: 'loading',
        loadedBytes: 0,
        totalBytes: 0,
        ...p,
      } as EvaluatorProgress),
    startWorks: () => void (failStart = null),
    ev: () => status.get().evaluator,
    tick,
  };
}

describe('evaluator service', () => {
  it('starts once however many ask, and is ready when the embedder has loaded', async () => {
    const { service, starts, ev, tick } = setup();
    const [a, b] = await Promise.all([service.evaluator(), service.evaluator()]);
    expect(a).toBe(b);
    expect(starts()).toBe(1);
    await tick();
    expect(ev()).toMatchObject({ state: 'ready', device: 'wasm', reason: 'No WebGPU adapter.' });
    expect(await service.embedderId()).toBe('hub:Xenova/all-MiniLM-L6-v2');
  });

  it('shows each model’s download, and lists the model once it is ready', async () => {
    const { service, progress, ev } = setup();
    await service.evaluator();
    progress({ status: 'loading', file: 'onnx/model.onnx', loadedBytes: 10, totalBytes: 100 });
    expect(ev().progress).toMatchObject({
      label: 'embedder: Xenova/all-MiniLM-L6-v2 (onnx/model.onnx)',
      loaded: 10,
      total: 100,
    });
    progress({ status: 'ready' });
    expect(ev().progress).toBeUndefined();
    expect(ev().models).toEqual(['embedder: Xenova/all-MiniLM-L6-v2']);
  });

  it('shows an embedder that cannot load as an error that says documents are still found by words', async () => {
    const { service, fake, ev, tick } = setup();
    fake.embedderFails = new Error('Failed to fetch');
    await service.evaluator();
    await tick();
    expect(ev().state).toBe('error');
    expect(ev().error).toBe('The embedding model Xenova/all-MiniLM-L6-v2 could not load: Failed to fetch');
    expect(ev().suggestion).toMatch(/found by their words/);
  });

  it('Try again reloads the failed embedder in the running evaluator, and reports whether it now runs', async () => {
    const { service, fake, starts, ev, tick } = setup();
    fake.embedderFails = new Error('Failed to fetch');
    await service.evaluator();
    await tick();
    fake.embedderFails = null;
    expect(await service.retry()).toBe(true);
    expect(fake.retries).toBe(1);
    expect(starts()).toBe(1);
    expect(ev().state).toBe('ready');
  });

  it('Try again starts the evaluator anew when it did not start', async () => {
    const { service, starts, startWorks, ev } = setup({
      startFails: new Error('The evaluator worker failed to start: script error'),
    });
    await expect(service.evaluator()).rejects.toThrow(/failed to start/);
    expect(ev()).toMatchObject({ state: 'error', error: 'The evaluator worker failed to start: script error' });
    startWorks();
    expect(await service.retry()).toBe(true);
    expect(starts()).toBe(2);
    expect(ev().state).toBe('ready');
  });
});
