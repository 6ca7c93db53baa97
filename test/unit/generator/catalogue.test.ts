import { modelLibURLPrefix, modelVersion, prebuiltAppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import {
  CATALOGUE,
  DEFAULT_MODEL_ID,
  MODEL_LIB_BASE,
  pickPrecision,
  resolveModel,
} from '../../../src/generator/catalogue';

describe('model catalogue', () => {
  it('matches the records web-llm 0.2.86 ships, so every model can actually load', () => {
    expect(MODEL_LIB_BASE).toBe(`${modelLibURLPrefix}${modelVersion}/`);
    for (const m of CATALOGUE) {
      for (const precision of ['f16', 'f32'] as const) {
        const ours = resolveModel({ kind: 'catalogue', id: m.id }, precision, 'https://example.org/app/').record;
        const theirs = prebuiltAppConfig.model_list.find((r) => r.model_id === ours.model_id);
        expect(theirs, ours.model_id).toBeDefined();
        expect(ours.model).toBe(theirs!.model);
        expect(ours.model_lib).toBe(theirs!.model_lib);
        expect(ours.vram_required_MB).toBe(theirs!.vram_required_MB);
      }
    }
    expect(CATALOGUE[0]!.id).toBe(DEFAULT_MODEL_ID);
  });

  it('takes the q4f32 build when the GPU lacks shader-f16', () => {
    expect(pickPrecision(false)).toBe('f32');
    expect(pickPrecision(false, 'f16')).toBe('f32');
    expect(pickPrecision(true)).toBe('f16');
    expect(
      resolveModel({ kind: 'catalogue', id: DEFAULT_MODEL_ID }, pickPrecision(false), 'https://x/').modelId,
    ).toMatch(/q4f32_1/);
  });

  it('serves a packed model from the site itself, below its sub-path', () => {
    const pack = {
      model_list: [
        {
          model_id: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC',
          model: 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC/resolve/main/',
          model_lib: 'libs/Qwen2-0.5B-Instruct-q4f32_1_cs1k-webgpu.wasm',
        },
      ],
    };
    const m = resolveModel(
      { kind: 'catalogue', id: 'qwen2.5-0.5b' },
      'f32',
      'https://host.example/some/sub/path/index.html',
      pack,
    );
    expect(m.local).toBe(true);
    expect(m.record.model).toBe(
      'https://host.example/some/sub/path/models/webllm/Qwen2.5-0.5B-Instruct-q4f32_1-MLC/resolve/main/',
    );
    expect(m.record.model_lib).toBe(
      'https://host.example/some/sub/path/models/webllm/libs/Qwen2-0.5B-Instruct-q4f32_1_cs1k-webgpu.wasm',
    );
    expect(resolveModel({ kind: 'catalogue', id: 'qwen2.5-0.5b' }, 'f16', 'https://host.example/', pack).local).toBe(
      false,
    );
  });

  it('accepts a custom (e.g. native Self-RAG) model with URLs relative to the page', () => {
    const m = resolveModel(
      {
        kind: 'custom',
        name: 'selfrag_llama2_7b-q4f16_1',
        weightsUrl: 'my-models/selfrag/',
        libUrl: 'my-models/selfrag.wasm',
        native: true,
      },
      'f16',
      'https://host.example/app/',
    );
    expect(m.native).toBe(true);
    expect(m.record.model).toBe('https://host.example/app/my-models/selfrag/');
    expect(m.record.model_lib).toBe('https://host.example/app/my-models/selfrag.wasm');
  });

  it('says what is wrong with an incomplete custom model or an unknown id', () => {
    expect(() =>
      resolveModel({ kind: 'custom', name: 'x', weightsUrl: 'a/', libUrl: ' ', native: false }, 'f16', 'https://x/'),
    ).toThrow(/both a weights URL and a model library URL/);
    expect(() => resolveModel({ kind: 'catalogue', id: 'gpt-9' }, 'f16', 'https://x/')).toThrow(
      /Unknown model "gpt-9"/,
    );
  });
});
