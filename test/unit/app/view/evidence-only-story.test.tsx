// Evidence-only mode tells one story: the Status panel, the engine picker and the mode's notice all
// say that no model writes answers (issue 47, item 5: the panel said "Answers are written by
// llama.cpp on the CPU" and offered "Load the model now", the notice gave the WebGPU reason).
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CHOSEN_EVIDENCE_ONLY } from '../../../../src/app/state/page';
import { noWebGpuPlan } from '../../../../src/app/view/no-webgpu-plan';
import type { StatusMap } from '../../../../src/app/state/worker-status';
import { whoWrites } from '../../../../src/app/view/engine-view';
import { chosenFromNoWebGpu } from '../../../../src/app/view/evidence-notice';
import { StatusPanel } from '../../../../src/ui/StatusPanel';

const status: StatusMap = {
  evaluator: { state: 'ready', device: 'wasm', models: ['MiniLM'] },
  generator: {
    state: 'idle',
    reason: 'WebGPU has no adapter here. Answers are written by llama.cpp on the CPU, more slowly.',
    models: [],
  },
  library: { state: 'ready', models: [] },
};

const panel = (evidenceOnly: boolean) =>
  renderToStaticMarkup(
    <StatusPanel
      status={status}
      generatorCalls={0}
      now={0}
      picker={null}
      onLoadGenerator={() => undefined}
      onCancelGenerator={() => undefined}
      onEvidenceOnly={() => undefined}
      evidenceOnly={evidenceOnly}
      unreachable={false}
    />,
  );

describe('evidence-only mode, in every place that says who writes', () => {
  it('the Status panel: the language model is not used, no engine named, no offer to load it', () => {
    const html = panel(true);
    expect(html).toContain('not used in evidence-only mode');
    expect(html).not.toContain('Answers are written by');
    expect(html).not.toContain('Load the model now');
    // Outside the mode the panel says who will write, and offers to load it.
    expect(panel(false)).toContain('Answers are written by llama.cpp on the CPU');
    expect(panel(false)).toContain('Load the model now');
  });

  it('the engine picker: no model writes now, and which one will once the mode is left', () => {
    expect(whoWrites('wllama', false)).toBe('Answers are written by llama.cpp on the CPU.');
    expect(whoWrites('wllama', true)).toBe(
      'In evidence-only mode no model writes answers: questions return passages. llama.cpp on the CPU writes them once you leave it.',
    );
    expect(whoWrites(undefined, true)).toMatch(/^In evidence-only mode no model writes answers/);
    expect(whoWrites(undefined, false)).toBeNull();
  });

  it('the notice: chosen where llama.cpp writes without WebGPU; the WebGPU reason only where nothing could write', () => {
    expect(chosenFromNoWebGpu(noWebGpuPlan('auto').answersOnCpu, 'No adapter.', CHOSEN_EVIDENCE_ONLY)).toBe(
      CHOSEN_EVIDENCE_ONLY,
    );
    expect(chosenFromNoWebGpu(noWebGpuPlan('webllm').answersOnCpu, 'No adapter.', CHOSEN_EVIDENCE_ONLY)).toBe(
      'No adapter.',
    );
  });
});
