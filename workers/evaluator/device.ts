// Chooses WebGPU or WASM and says why, so the UI can tell the user.
import type { DevicePreference, DeviceReport } from '../../src/evaluator/config';

interface GpuLike {
  requestAdapter(): Promise<unknown>;
}

export async function pickDevice(
  preference: DevicePreference,
  gpu: GpuLike | undefined = (globalThis.navigator as { gpu?: GpuLike } | undefined)?.gpu,
): Promise<DeviceReport> {
  if (preference === 'wasm') return { device: 'wasm', reason: 'WASM was chosen in the settings.' };
  if (!gpu) {
    return { device: 'wasm', reason: 'This browser has no WebGPU (navigator.gpu is missing); running on WASM.' };
  }
  let adapter: unknown = null;
  let failure = '';
  try {
    adapter = await gpu.requestAdapter();
  } catch (e) {
    failure = e instanceof Error ? `: ${e.message}` : '';
  }
  if (!adapter) {
    return { device: 'wasm', reason: `WebGPU is present but no adapter was granted${failure}; running on WASM.` };
  }
  return {
    device: 'webgpu',
    reason:
      preference === 'webgpu'
        ? 'WebGPU was chosen in the settings and an adapter is available.'
        : 'A WebGPU adapter is available.',
  };
}
