// Which models the services load, from URL parameters a site or user can set:
// `?modelPack=<folder>` reads the evaluator models from a local model pack under
// models/ (offline demos, tests): <folder>/embedder, <folder>/reranker, <folder>/nli.
// A pack without reranker/ or nli/ uses the critic the site ships (src/evaluator/pack.ts).
// `?critic=site` judges with the critic the site ships (critic/: no hub needed; measured weaker
// than the defaults' promise, docs/benchmarks-answer.md) instead of the hub's cross-encoder and NLI model.
// `?evaluatorDevice=wasm|webgpu` overrides the evaluator's automatic device
// choice (e.g. on a GPU whose driver mis-runs a model).
import { type EvaluatorConfigInput, SHIPPED_NLI, SHIPPED_RERANKER } from '../../evaluator/config';

const PACK_NAME = /^[A-Za-z0-9._-]{1,64}$/;

export function evaluatorInput(search: string): EvaluatorConfigInput {
  const p = new URLSearchParams(search);
  const out: EvaluatorConfigInput = {};
  const device = p.get('evaluatorDevice');
  if (device === 'wasm' || device === 'webgpu') out.device = device;
  if (p.get('critic') === 'site') Object.assign(out, { reranker: SHIPPED_RERANKER, nli: SHIPPED_NLI });
  const pack = p.get('modelPack');
  if (pack && PACK_NAME.test(pack) && !pack.startsWith('.')) {
    Object.assign(out, {
      source: 'local',
      embedder: `${pack}/embedder`,
      reranker: `${pack}/reranker`,
      nli: `${pack}/nli`,
    });
  }
  return out;
}
