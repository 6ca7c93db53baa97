// Which models the generator can run and where their files live. Kept free of
// the web-llm import (6 MB) so the model picker renders before the engine loads;
// test/unit/generator/catalogue.test.ts checks these records against web-llm's
// own prebuiltAppConfig so a version bump cannot silently break them.
import type { AppConfig, ModelRecord } from '@mlc-ai/web-llm';

/** web-llm 0.2.86's prebuilt library folder (config.modelLibURLPrefix + modelVersion). */
export const MODEL_LIB_BASE =
  'https://raw.githubusercontent.com/mlc-ai/binary-mlc-llm-libs/main/web-llm-models/v0_2_86/base/';
const HUB = 'https://huggingface.co/mlc-ai/';

export type Precision = 'f16' | 'f32';

export interface CatalogueModel {
  /** Our id, stable across precisions (e.g. 'qwen2.5-1.5b'). */
  id: string;
  label: string;
  /** web-llm model_id of each build. */
  builds: Record<Precision, { modelId: string; lib: string; vramMB: number }>;
  contextWindow: number;
  /** The model was trained with Self-RAG's reflection tokens (read directly instead of prompted). */
  native: boolean;
}

function prebuilt(id: string, label: string, base: string, libBase: string, vram: [number, number]): CatalogueModel {
  return {
    id,
    label,
    contextWindow: 4096,
    native: false,
    builds: {
      f16: { modelId: `${base}-q4f16_1-MLC`, lib: `${libBase}-q4f16_1_cs1k-webgpu.wasm`, vramMB: vram[0] },
      f32: { modelId: `${base}-q4f32_1-MLC`, lib: `${libBase}-q4f32_1_cs1k-webgpu.wasm`, vramMB: vram[1] },
    },
  };
}

/** Instruct models small enough for an ordinary laptop, smallest useful first. The first is the default. */
export const CATALOGUE: readonly CatalogueModel[] = [
  prebuilt(
    'qwen2.5-1.5b',
    'Qwen2.5 1.5B Instruct (default)',
    'Qwen2.5-1.5B-Instruct',
    'Qwen2-1.5B-Instruct',
    [1629.75, 1888.97],
  ),
  prebuilt(
    'qwen2.5-0.5b',
    'Qwen2.5 0.5B Instruct (smallest)',
    'Qwen2.5-0.5B-Instruct',
    'Qwen2-0.5B-Instruct',
    [944.62, 1060.2],
  ),
  prebuilt(
    'llama-3.2-1b',
    'Llama 3.2 1B Instruct',
    'Llama-3.2-1B-Instruct',
    'Llama-3.2-1B-Instruct',
    [879.04, 1128.82],
  ),
  prebuilt(
    'smollm2-1.7b',
    'SmolLM2 1.7B Instruct',
    'SmolLM2-1.7B-Instruct',
    'SmolLM2-1.7B-Instruct',
    [1774.19, 2692.38],
  ),
  prebuilt('qwen2.5-3b', 'Qwen2.5 3B Instruct', 'Qwen2.5-3B-Instruct', 'Qwen2.5-3B-Instruct', [2504.76, 2893.64]),
  prebuilt(
    'llama-3.2-3b',
    'Llama 3.2 3B Instruct',
    'Llama-3.2-3B-Instruct',
    'Llama-3.2-3B-Instruct',
    [2263.69, 2951.51],
  ),
  prebuilt(
    'phi-3.5-mini',
    'Phi 3.5 mini Instruct (largest)',
    'Phi-3.5-mini-instruct',
    'Phi-3.5-mini-instruct',
    [3672.07, 5483.12],
  ),
];

export const DEFAULT_MODEL_ID = 'qwen2.5-1.5b';

/** A model the user compiled themselves (e.g. selfrag_llama2_7b with MLC LLM). */
export interface CustomModel {
  /** Folder holding mlc-chat-config.json, the weight shards and the tokenizer (absolute or relative to the page). */
  weightsUrl: string;
  /** The compiled model library (.wasm), absolute or relative to the page. */
  libUrl: string;
  /** Display name; also the engine's model id. */
  name: string;
  /** Its tokenizer has the reflection tokens (a native Self-RAG model). */
  native: boolean;
  contextWindow?: number;
}

export type ModelChoice = { kind: 'catalogue'; id: string } | ({ kind: 'custom' } & CustomModel);

export function findModel(id: string): CatalogueModel | undefined {
  return CATALOGUE.find((m) => m.id === id);
}

/** q4f32 when the adapter cannot run f16 shaders (e.g. SwiftShader, many older GPUs). */
export function pickPrecision(hasShaderF16: boolean, requested: Precision | 'auto' = 'auto'): Precision {
  if (requested === 'f16' && !hasShaderF16) return 'f32';
  if (requested === 'auto') return hasShaderF16 ? 'f16' : 'f32';
  return requested;
}

/** Where a local model pack (scripts/models-webllm.ts) puts its files, relative to the site's base. */
export const LOCAL_PACK_DIR = 'models/webllm/';
export const LOCAL_PACK_CONFIG = `${LOCAL_PACK_DIR}app-config.json`;

/** The pack's app config as written by scripts/models-webllm.ts: URLs relative to the pack folder. */
export interface LocalPack {
  model_list: { model_id: string; model: string; model_lib: string; native?: boolean }[];
}

export interface ResolvedModel {
  /** The engine's model id. */
  modelId: string;
  native: boolean;
  record: ModelRecord;
  /** True when served by the site itself from a local model pack. */
  local: boolean;
}

/**
 * The engine record for a choice, with every URL absolute: the worker resolves
 * relative URLs against its own script URL, not the page, so a site on a
 * sub-path would fetch from the wrong folder.
 */
export function resolveModel(
  choice: ModelChoice,
  precision: Precision,
  baseURI: string,
  pack?: LocalPack,
): ResolvedModel {
  const abs = (u: string, base = baseURI): string => new URL(u, base).href;
  if (choice.kind === 'custom') {
    const name = choice.name.trim();
    if (!name) throw new TypeError('A custom model needs a name.');
    if (!choice.weightsUrl.trim() || !choice.libUrl.trim())
      throw new TypeError('A custom model needs both a weights URL and a model library URL.');
    return {
      modelId: name,
      native: choice.native,
      local: false,
      record: {
        model_id: name,
        model: abs(choice.weightsUrl.trim()),
        model_lib: abs(choice.libUrl.trim()),
        ...(choice.contextWindow ? { overrides: { context_window_size: choice.contextWindow } } : {}),
      },
    };
  }
  const model = findModel(choice.id);
  if (!model)
    throw new TypeError(`Unknown model "${choice.id}". Choose one of: ${CATALOGUE.map((m) => m.id).join(', ')}.`);
  const build = model.builds[precision];
  const packed = pack?.model_list.find((m) => m.model_id === build.modelId);
  const packBase = abs(LOCAL_PACK_DIR);
  return {
    modelId: build.modelId,
    native: model.native,
    local: !!packed,
    record: {
      model_id: build.modelId,
      model: packed ? abs(packed.model, packBase) : HUB + build.modelId,
      model_lib: packed ? abs(packed.model_lib, packBase) : MODEL_LIB_BASE + build.lib,
      vram_required_MB: build.vramMB,
      overrides: { context_window_size: model.contextWindow },
    },
  };
}

export function appConfigFor(model: ResolvedModel, cacheBackend: 'cache' | 'indexeddb' = 'cache'): AppConfig {
  return { model_list: [model.record], cacheBackend };
}
