// The generator's public surface for the app: one neutral handle, two engines' factories.
export type {
  CompleteRequest,
  CompleteResult,
  GeneratorHandle,
  GeneratorHooks,
  GeneratorState,
  LoadProgress,
  LoadStage,
  RunsOn,
} from './handle';
export { createGenerator } from './webllm/create';
export type { Connect, Connection, GeneratorConfig, WebllmHooks } from './webllm/create';
// wllama itself (its worker and wasm) loads only when a llama.cpp model is loaded.
export { createWllamaGenerator } from './wllama/create';
export type { WllamaConfig, WllamaHooks } from './wllama/create';
export { CATALOGUE, DEFAULT_MODEL_ID, findModel, pickPrecision } from './catalogue';
export type { CatalogueModel, CustomModel, ModelChoice, Precision } from './catalogue';
export { GeneratorError, classifyError } from './errors';
export type { GeneratorErrorKind } from './errors';
