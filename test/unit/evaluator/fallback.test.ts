import { describe, expect, it } from 'vitest';
import type { EvaluatorDevice, ModelDeviceReport } from '../../../src/evaluator/config';
import { summariseDevices } from '../../../src/evaluator/device-summary';
import { withFallback } from '../../../src/evaluator/fallback';

/** A model double whose load or run fails on the devices listed. */
function fakeModels(fail: { load?: EvaluatorDevice[]; run?: EvaluatorDevice[]; message?: string }) {
  const made: { device: EvaluatorDevice; disposed: boolean; runs: number }[] = [];
  const make = (device: EvaluatorDevice) => {
    const rec = { device, disposed: false, runs: 0 };
    made.push(rec);
    return {
      device,
      rec,
      async ready() {
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
  const m = withFallback({ role: 'nli', model: 'tiny/nli', device, reason: 'A WebGPU adapter is available.', make: f.make, onReport: (r) => reports.push(r) });
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
    expect(m.report()).toMatchObject({ device: 'wasm', loaded: true, fellBackFrom: 'webgpu', error: 'setPipeline: not a GPUComputePipeline' });
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
    expect(made.map((x) => [x.device, x.runs])).toEqual([['webgpu', 1], ['wasm', 1]]);
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
    await expect(m.run((x) => x.score(6))).rejects.toThrow('run failed on wasm (it had failed on WebGPU first: run failed on webgpu)');
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

describe('status line from the per-model devices', () => {
  const choice = { device: 'webgpu' as const, reason: 'A WebGPU adapter is available.' };
  const r = (role: ModelDeviceReport['role'], device: EvaluatorDevice, extra: Partial<ModelDeviceReport> = {}): ModelDeviceReport => ({
    role,
    model: `tiny/${role}`,
    device,
    reason: choice.reason,
    loaded: true,
    ...extra,
  });

  it('is the chosen device until a model has loaded, then the devices the loaded models run on', () => {
    expect(summariseDevices(choice, [r('embedder', 'webgpu', { loaded: false })])).toEqual({ device: 'webgpu', reason: choice.reason });
    expect(summariseDevices(choice, [r('embedder', 'webgpu'), r('reranker', 'webgpu')])).toEqual({ device: 'webgpu', reason: choice.reason });
  });

  it('names the model that fell back to WASM and why', () => {
    const nli = r('nli', 'wasm', { fellBackFrom: 'webgpu', error: 'boom', reason: 'NLI fell back to WASM: boom' });
    expect(summariseDevices(choice, [nli, r('embedder', 'webgpu')])).toEqual({
      device: 'webgpu + wasm',
      reason: 'A WebGPU adapter is available. NLI fell back to WASM: boom.',
    });
  });
});
