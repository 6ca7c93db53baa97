// The generator's public surface for the UI and the decode loop.
export { createGenerator } from './create-generator';
export type { Connect, Connection, GeneratorConfig, GeneratorHandle, GeneratorHooks, GeneratorState } from './create-generator';
export { CATALOGUE, DEFAULT_MODEL_ID, findModel, pickPrecision } from './catalogue';
export type { CatalogueModel, CustomModel, ModelChoice, Precision } from './catalogue';
export { GeneratorError, classifyError } from './errors';
export type { GeneratorErrorKind } from './errors';
export type { LoadProgress, LoadStage } from './progress';
export { EngineGenerator } from './engine-generator';
