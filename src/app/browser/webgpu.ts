import { errorMessage } from '../../core/errors';

/** Whether WebGPU can be used here, and why not in words a user can act on (`ok` false). */
export interface WebGpuCheck {
  ok: boolean;
  reason: string;
}

interface GpuLike {
  requestAdapter(): Promise<unknown>;
}

/** Whether a WebGPU adapter exists, with the reason in words a user can act on. */
export async function checkWebGpu(
  nav: { gpu?: GpuLike } = navigator as unknown as { gpu?: GpuLike },
): Promise<WebGpuCheck> {
  if (!nav.gpu) {
    return {
      ok: false,
      reason:
        'This browser does not offer WebGPU (it needs a recent Chrome or Edge, and a page served over https or localhost).',
    };
  }
  try {
    const adapter = await nav.gpu.requestAdapter();
    if (!adapter)
      return {
        ok: false,
        reason:
          'This browser knows WebGPU but has no graphics adapter it may use (it may be switched off or blocked for this GPU).',
      };
    return { ok: true, reason: 'A WebGPU adapter is available.' };
  } catch (e) {
    return { ok: false, reason: `Asking for a WebGPU adapter failed: ${errorMessage(e)}` };
  }
}
