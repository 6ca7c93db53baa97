import { describe, expect, it } from 'vitest';
import type { EvaluatorDevice, ModelDeviceReport } from '../../../src/evaluator/config';
import { summariseDevices } from '../../../src/evaluator/device-summary';
import { withFallback } from '../../../src/evaluator/fallback';

/** A model double whose load or run fails on the devices listed. */
function fakeModels(fail: {
  load?: EvaluatorDevice[];
  run?: EvaluatorDevice[];
  message?: string;
  gate?: Promise<void>;
}) {
  const made: { device: EvaluatorDevice; disposed: boolean; runs: number; loads: number }[] = [];
  const make = (device: EvaluatorDevice) => {
    const rec = { device, disposed: false, runs: 0, loads: 0 };
    made.push(rec);
    return {
      device,
      rec,
      async ready() {
        rec.loads++;
        await fail.gate;
        if (fail.load?.includes(device)) throw new Error(fail.message ?? `load failed on ${device}`);
      },
      async score(x: number) {
        rec.runs++;
        if (fail.run?.includes(device)) throw new Error(fail.message ?? `run failed on ${device}`);
        return `${device}:${x}`;
      },
      async dispose() {
        rec.disposed = true;
      },
    };
  };
  return { made, make };
}

function setup(fail: Parameters<typeof fakeModels>[0], device: EvaluatorDevice = 'webgpu') {
  const f = fakeModels(fail);
  const reports: ModelDeviceReport[] = [];
  const m = withFallback({
    role: 'nli',
    model: 'tiny/nli',
    device,
    reason: 'A WebGPU adapter is available.',
    make: f.make,
    onReport: (r) => reports.push(r),
  });
  return { ...f, m, reports };
}

describe('per-model WASM fallback', () => {
  it('stays on WebGPU and reports it once loaded when nothing fails', async () => {
    const { m, reports, made } = setup({});
    expect(m.report()).toMatchObject({ device: 'webgpu', loaded: false });
    expect(await m.run((x) => x.score(1))).toBe('webgpu:1');
    expect(reports).toEqual([expect.objectContaining({ role: 'nli', device: 'webgpu', loaded: true })]);
    expect(made.map((x) => x.device)).toEqual(['webgpu']);
  });

  it('moves a model that fails to load on WebGPU to WASM, keeps working, and says why', async () => {
    const { m, reports, made } = setup({ load: ['webgpu'], message: 'setPipeline: not a GPUComputePipeline' });
    expect(await m.run((x) => x.score(2))).toBe('wasm:2');
    expect(m.report()).toMatchObject({
      device: 'wasm',
      loaded: true,
      fellBackFrom: 'webgpu',
      error: 'setPipeline: not a GPUComputePipeline',
    });
    expect(m.report().reason).toBe('NLI fell back to WASM: setPipeline: not a GPUComputePipeline');
    expect(reports.at(-1)?.device).toBe('wasm');
    expect(made[0]).toMatchObject({ device: 'webgpu', disposed: true });
    expect(await m.run((x) => x.score(3))).toBe('wasm:3');
    expect(made).toHaveLength(2);
  });

  it('moves a model that loads but fails to run on WebGPU, retrying the same call on WASM', async () => {
    const { m, made } = setup({ run: ['webgpu'] });
    await m.ready();
    expect(m.report()).toMatchObject({ device: 'webgpu', loaded: true });
    expect(await m.run((x) => x.score(4))).toBe('wasm:4');
    expect(m.report()).toMatchObject({ device: 'wasm', fellBackFrom: 'webgpu', error: 'run failed on webgpu' });
    expect(made.map((x) => [x.device, x.runs])).toEqual([
      ['webgpu', 1],
      ['wasm', 1],
    ]);
  });

  it('moves once when concurrent calls fail together', async () => {
    const { m, made, reports } = setup({ run: ['webgpu'] });
    const out = await Promise.all([1, 2, 3].map((i) => m.run((x) => x.score(i))));
    expect(out).toEqual(['wasm:1', 'wasm:2', 'wasm:3']);
    expect(made.filter((x) => x.device === 'wasm')).toHaveLength(1);
    expect(reports.filter((r) => r.fellBackFrom)).toHaveLength(1);
  });

  it('keeps WebGPU and gives the error when WASM fails the same way (not the device: e.g. a missing file)', async () => {
    const { m, made } = setup({ load: ['webgpu', 'wasm'], message: 'Could not load "tiny/nli": 404' });
    await expect(m.run((x) => x.score(5))).rejects.toThrow('Could not load "tiny/nli": 404');
    expect(m.report()).toMatchObject({ device: 'webgpu', loaded: false });
    expect(m.report().fellBackFrom).toBeUndefined();
    expect(made.find((x) => x.device === 'wasm')?.disposed).toBe(true);
  });

  it('names both errors when WASM fails differently', async () => {
    const { m } = setup({ run: ['webgpu', 'wasm'] });
    await expect(m.run((x) => x.score(6))).rejects.toThrow(
      'run failed on wasm (it had failed on WebGPU first: run failed on webgpu)',
    );
  });

  it('does not move a model when the caller aborted', async () => {
    const { m, made } = setup({});
    const aborted = () => Promise.reject(new DOMException('stop', 'AbortError'));
    await expect(m.run(aborted)).rejects.toThrow('stop');
    expect(m.report().device).toBe('webgpu');
    expect(made).toHaveLength(1);
  });

  it('never retries a model that was on WASM from the start', async () => {
    const { m, made } = setup({ run: ['wasm'] }, 'wasm');
    await expect(m.run((x) => x.score(7))).rejects.toThrow('run failed on wasm');
    expect(made).toHaveLength(1);
  });
});

describe('a model that could not load', () => {
  const hub = 'Could not load the embedding model "m" from the Hugging Face hub: Failed to fetch';
  const loads = (made: { loads: number }[]) => made.reduce((n, x) => n + x.loads, 0);

  it('fails every later call at once with the same error, loading nothing again', async () => {
    const { m, made } = setup({ load: ['webgpu', 'wasm'], message: hub });
    await expect(m.run((x) => x.score(1))).rejects.toThrow(hub);
    expect(made.map((x) => [x.device, x.loads])).toEqual([
      ['webgpu', 1],
      ['wasm', 1],
    ]);
    for (let i = 0; i < 20; i++) await expect(m.run((x) => x.score(i))).rejects.toThrow(hub);
    await expect(m.ready()).rejects.toThrow(hub);
    expect(made).toHaveLength(2);
    expect(loads(made)).toBe(2);
  });

  it('remembers a failed load on WASM alone too', async () => {
    const { m, made } = setup({ load: ['wasm'], message: hub }, 'wasm');
    await expect(m.ready()).rejects.toThrow(hub);
    await expect(m.run((x) => x.score(1))).rejects.toThrow(hub);
    expect(loads(made)).toBe(1);
  });

  it('gives concurrent callers one load and one error', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const { m, made } = setup({ load: ['webgpu', 'wasm'], message: hub, gate });
    const calls = [1, 2, 3, 4, 5].map((i) => m.run((x) => x.score(i)));
    const preload = m.ready();
    open();
    for (const c of [...calls, preload]) await expect(c).rejects.toThrow(hub);
    expect(made.map((x) => [x.device, x.loads])).toEqual([
      ['webgpu', 1],
      ['wasm', 1],
    ]);
  });

  it('gives concurrent callers one load when it succeeds', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const { m, made } = setup({ gate });
    const calls = [1, 2, 3].map((i) => m.run((x) => x.score(i)));
    open();
    expect(await Promise.all(calls)).toEqual(['webgpu:1', 'webgpu:2', 'webgpu:3']);
    expect(made.map((x) => [x.device, x.loads])).toEqual([['webgpu', 1]]);
  });

  it('loads again after retry(), and works once the model can be fetched', async () => {
    const fail = { load: ['webgpu', 'wasm'] as EvaluatorDevice[], message: hub };
    const { m, made } = setup(fail);
    await expect(m.run((x) => x.score(1))).rejects.toThrow(hub);
    await expect(m.run((x) => x.score(2))).rejects.toThrow(hub);
    expect(loads(made)).toBe(2);
    // Still unreachable: one more load on each device, then remembered again.
    m.retry();
    await expect(m.run((x) => x.score(3))).rejects.toThrow(hub);
    await expect(m.run((x) => x.score(4))).rejects.toThrow(hub);
    expect(loads(made)).toBe(4);
    // Reachable: it loads on its own device and runs.
    fail.load = [];
    m.retry();
    expect(await m.run((x) => x.score(5))).toBe('webgpu:5');
    expect(m.report()).toMatchObject({ device: 'webgpu', loaded: true });
    expect(m.report().fellBackFrom).toBeUndefined();
  });

  it('does not remember a load that was aborted', async () => {
    let loads = 0;
    const m = withFallback({
      role: 'embedder',
      model: 'm',
      device: 'wasm',
      reason: 'r',
      make: () => ({
        async ready() {
          if (++loads === 1) throw new DOMException('stop', 'AbortError');
        },
        async dispose() {},
      }),
    });
    await expect(m.ready()).rejects.toThrow('stop');
    await m.ready();
    expect(loads).toBe(2);
  });

  it('still moves a model that loaded but fails to run on WebGPU to WASM, and does not remember a run failure', async () => {
    const { m, made } = setup({ run: ['webgpu'] });
    expect(await m.run((x) => x.score(1))).toBe('wasm:1');
    expect(m.report()).toMatchObject({ device: 'wasm', fellBackFrom: 'webgpu' });
    // A run that fails on WASM (bad input) fails that call only.
    let bad = true;
    await expect(m.run(async (x) => (bad ? Promise.reject(new Error('bad input')) : x.score(2)))).rejects.toThrow(
      'bad input',
    );
    bad = false;
    expect(await m.run(async (x) => (bad ? Promise.reject(new Error('bad input')) : x.score(2)))).toBe('wasm:2');
    expect(made.map((x) => x.device)).toEqual(['webgpu', 'wasm']);
  });
});

describe('status line from the per-model devices', () => {
  const choice = { device: 'webgpu' as const, reason: 'A WebGPU adapter is available.' };
  const r = (
    role: ModelDeviceReport['role'],
    device: EvaluatorDevice,
    extra: Partial<ModelDeviceReport> = {},
  ): ModelDeviceReport => ({
    role,
    model: `tiny/${role}`,
    device,
    reason: choice.reason,
    loaded: true,
    ...extra,
  });

  it('is the chosen device until a model has loaded, then the devices the loaded models run on', () => {
    expect(summariseDevices(choice, [r('embedder', 'webgpu', { loaded: false })])).toEqual({
      device: 'webgpu',
      reason: choice.reason,
    });
    expect(summariseDevices(choice, [r('embedder', 'webgpu'), r('reranker', 'webgpu')])).toEqual({
      device: 'webgpu',
      reason: choice.reason,
    });
  });

  it('names the model that fell back to WASM and why', () => {
    const nli = r('nli', 'wasm', { fellBackFrom: 'webgpu', error: 'boom', reason: 'NLI fell back to WASM: boom' });
    expect(summariseDevices(choice, [nli, r('embedder', 'webgpu')])).toEqual({
      device: 'webgpu + wasm',
      reason: 'A WebGPU adapter is available. NLI fell back to WASM: boom.',
    });
  });
});
