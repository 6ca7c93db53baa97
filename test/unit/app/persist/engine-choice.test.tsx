// The engine the user picks survives a reload; a link may switch engine or name a catalogue GGUF
// model or a file of the site's own model packs for one visit, never an outside model address.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  defaultEngineChoice,
  engineInput,
  ggufUrlProblem,
  sanitizeEngineChoice,
  sanitizeGguf,
  type EngineChoice,
} from '../../../../src/app/persist/engine-choice';
import { noWebGpuPlan } from '../../../../src/app/view/no-webgpu-plan';
import { Notices } from '../../../../src/ui/Notices';

const PAGE = 'https://rag.example/app/';
const stored: EngineChoice = { engine: 'wllama', gguf: { kind: 'gguf', id: 'llama-3.2-1b-gguf' } };

describe('GGUF address checks', () => {
  it('accepts https and this site’s own .gguf files, and says why anything else is refused', () => {
    expect(ggufUrlProblem('https://models.example/x/qwen.gguf', PAGE)).toBeNull();
    expect(ggufUrlProblem('models/pack/a.gguf', PAGE)).toBeNull();
    expect(ggufUrlProblem('http://evil.example/a.gguf', PAGE)).toMatch(/https:\/\/ or be a file on this site/);
    expect(ggufUrlProblem('javascript:alert(1)//.gguf', PAGE)).toMatch(/https:\/\//);
    expect(ggufUrlProblem('https://models.example/x/qwen.bin', PAGE)).toMatch(/must end in \.gguf/);
    expect(ggufUrlProblem('   ', PAGE)).toMatch(/missing/);
  });
});

describe('stored engine choice, field by field', () => {
  it('keeps a good engine and model', () => {
    expect(sanitizeEngineChoice(stored)).toEqual(stored);
    const url: EngineChoice = {
      engine: 'auto',
      gguf: { kind: 'gguf-url', url: 'https://m.example/s.gguf', native: true },
    };
    expect(sanitizeEngineChoice(url, defaultEngineChoice(), PAGE)).toEqual(url);
  });

  it('replaces a bad engine or a bad model with the base one, keeping the other', () => {
    expect(sanitizeEngineChoice({ engine: 'cuda', gguf: stored.gguf })).toEqual({ engine: 'auto', gguf: stored.gguf });
    expect(sanitizeEngineChoice({ engine: 'webllm', gguf: { kind: 'gguf', id: 'gone-model' } })).toEqual({
      engine: 'webllm',
      gguf: defaultEngineChoice().gguf,
    });
    expect(
      sanitizeEngineChoice(
        { engine: 'webllm', gguf: { kind: 'gguf-url', url: 'http://evil.example/a.gguf' } },
        stored,
        PAGE,
      ),
    ).toEqual({ engine: 'webllm', gguf: stored.gguf });
    expect(sanitizeEngineChoice('nonsense', stored)).toEqual(stored);
    expect(sanitizeGguf({ kind: 'gguf-url', url: 'https://m.example/a.gguf', native: 'yes' }, PAGE)).toEqual({
      kind: 'gguf-url',
      url: 'https://m.example/a.gguf',
      native: false,
    });
  });
});

describe('the address overrides the stored engine for the visit', () => {
  it('keeps the stored choice when the address says nothing or nonsense', () => {
    expect(engineInput('', stored)).toEqual(stored);
    expect(engineInput('?engine=gpu&gguf=not-a-model', stored)).toEqual(stored);
  });

  it('switches engine and catalogue model, or a file of the site’s model packs', () => {
    expect(engineInput('?engine=webllm', stored)).toEqual({ engine: 'webllm', gguf: stored.gguf });
    expect(engineInput('?gguf=qwen2.5-1.5b-gguf', stored)).toEqual({
      engine: 'wllama',
      gguf: { kind: 'gguf', id: 'qwen2.5-1.5b-gguf' },
    });
    expect(engineInput('?gguf=models/tiny-gguf/native.gguf&ggufNative=1', stored).gguf).toEqual({
      kind: 'gguf-url',
      url: 'models/tiny-gguf/native.gguf',
      native: true,
    });
  });

  it('never takes an outside or escaping model address from a link', () => {
    for (const g of [
      'https://evil.example/model.gguf',
      '//evil.example/models/a.gguf',
      'models/../../evil.gguf',
      'models/a.gguf?x=https://evil.example',
      '/models/a.gguf',
      'http://localhost/models/a.gguf',
    ]) {
      expect(engineInput(`?gguf=${encodeURIComponent(g)}`, stored).gguf, g).toEqual(stored.gguf);
    }
  });
});

describe('the no-WebGPU notice says what happens with the chosen engine', () => {
  const render = (engine: 'auto' | 'webllm' | 'wllama') =>
    renderToStaticMarkup(
      <Notices
        webgpu={{ ok: false, reason: 'This browser has no WebGPU.' }}
        unreachable={false}
        noWebGpu={noWebGpuPlan(engine)}
        onUseLlama={() => undefined}
        evidenceOnly={null}
        pending={[]}
        busy={false}
        onEvidenceOnly={() => undefined}
        onLeaveEvidenceOnly={() => undefined}
        onRerun={() => undefined}
      />,
    );

  it('Auto and llama.cpp: answers come from the CPU, no switch offered', () => {
    for (const e of ['auto', 'wllama'] as const) {
      const html = render(e);
      expect(html).toMatch(/written on the CPU with llama\.cpp/);
      expect(html).not.toContain('data-testid="use-llama"');
      expect(html).toContain('data-testid="use-evidence-only"');
    }
  });

  it('WebLLM forced: says it cannot run here and offers llama.cpp or evidence-only', () => {
    const html = render('webllm');
    expect(html).toMatch(/WebLLM was chosen .* cannot run without WebGPU/);
    expect(html).not.toMatch(/Answers are written on the CPU/);
    expect(html).toContain('data-testid="use-llama"');
    expect(html).toContain('data-testid="use-evidence-only"');
  });
});
