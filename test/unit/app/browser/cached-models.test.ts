// The offline panel names the models this browser keeps, read from the model libraries' own cache keys.
import { describe, expect, it } from 'vitest';
import { evaluatorModelOf, generatorModelOf, listCachedModels } from '../../../../src/app/browser/cached-models';

describe('cached models', () => {
  it('reads evaluator model ids from transformers.js cache keys, from the hub or a pack at any sub-path', () => {
    expect(
      evaluatorModelOf('https://huggingface.co/Xenova/all-MiniLM-L6-v2/resolve/main/onnx/model_quantized.onnx'),
    ).toBe('Xenova/all-MiniLM-L6-v2');
    expect(evaluatorModelOf('http://127.0.0.1:4000/apps/rag/models/tiny/embedder/onnx/model.onnx')).toBe(
      'tiny/embedder',
    );
    expect(evaluatorModelOf('https://huggingface.co/Xenova/all-MiniLM-L6-v2/resolve/main/tokenizer.json')).toBeNull();
  });

  it('reads web-llm model ids from their weight manifests only', () => {
    expect(
      generatorModelOf(
        'https://huggingface.co/mlc-ai/Qwen2.5-1.5B-Instruct-q4f32_1-MLC/resolve/main/tensor-cache.json',
      ),
    ).toBe('Qwen2.5-1.5B-Instruct-q4f32_1-MLC');
    expect(
      generatorModelOf(
        'http://localhost/site/models/webllm/Qwen2.5-0.5B-Instruct-q4f16_1-MLC/resolve/main/tensor-cache.json',
      ),
    ).toBe('Qwen2.5-0.5B-Instruct-q4f16_1-MLC');
    expect(
      generatorModelOf(
        'https://huggingface.co/mlc-ai/Qwen2.5-1.5B-Instruct-q4f32_1-MLC/resolve/main/params_shard_0.bin',
      ),
    ).toBeNull();
  });

  it('lists each model once, and nothing when the caches are absent', async () => {
    const keys: Record<string, string[]> = {
      'transformers-cache': [
        'https://huggingface.co/Xenova/nli-deberta-v3-xsmall/resolve/main/onnx/model_quantized.onnx',
        'https://huggingface.co/Xenova/all-MiniLM-L6-v2/resolve/main/onnx/model_quantized.onnx',
        'https://huggingface.co/Xenova/all-MiniLM-L6-v2/resolve/main/onnx/model.onnx',
      ],
    };
    const api = {
      has: async (n: string) => n in keys,
      open: async (n: string) => ({ keys: async () => keys[n]!.map((url) => ({ url })) }),
    } as unknown as CacheStorage;
    expect(await listCachedModels(api)).toEqual({
      evaluator: ['Xenova/all-MiniLM-L6-v2', 'Xenova/nli-deberta-v3-xsmall'],
      generator: [],
    });
    expect(await listCachedModels(undefined)).toEqual({ evaluator: [], generator: [] });
  });
});
