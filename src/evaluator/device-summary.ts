// One line for the status panel from the per-model device reports: which devices the
// evaluator's models run on and, when one moved off WebGPU, which and why.
import type { DeviceReport, EvaluatorModelRole, ModelDeviceReport } from './config';

const ORDER: EvaluatorModelRole[] = ['embedder', 'reranker', 'nli'];

export function summariseDevices(
  choice: DeviceReport,
  models: ModelDeviceReport[],
): { device: string; reason: string } {
  const loaded = ORDER.flatMap((role) => models.filter((m) => m.role === role && m.loaded));
  const devices = loaded.length === 0 ? [choice.device] : [...new Set(loaded.map((m) => m.device))];
  const fallbacks = loaded
    .filter((m) => m.fellBackFrom)
    .map((m) => (/[.!?]$/.test(m.reason) ? m.reason : `${m.reason}.`));
  return {
    device: devices.join(' + '),
    reason: [choice.reason, ...fallbacks].join(' '),
  };
}
