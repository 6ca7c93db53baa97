// Which models the services load, from URL parameters a site or user can set:
// `?modelPack=<folder>` reads the evaluator models from a local model pack under
// models/ (offline demos, tests): <folder>/embedder, <folder>/reranker, <folder>/nli.
// A pack without reranker/ or nli/ uses the critic the site ships (src/evaluator/pack.ts).
// The critic the site ships (critic/) is the default; `?critic=hub` judges with the hub's
// cross-encoder and NLI model instead (general-purpose, never measured here; needs the hub).
// `?evaluatorDevice=wasm|webgpu` overrides the evaluator's automatic device
// choice (e.g. on a GPU whose driver mis-runs a model).
import { type EvaluatorConfigInput, HUB_NLI, HUB_RERANKER } from '../../evaluator/config';

const PACK_NAME = /^[A-Za-z0-9._-]{1,64}$/;

export function evaluatorInput(search: string): EvaluatorConfigInput {
  const p = new URLSearchParams(search);
  const out: EvaluatorConfigInput = {};
  const device = p.get('evaluatorDevice');
  if (device === 'wasm' || device === 'webgpu') out.device = device;
  if (p.get('critic') === 'hub') Object.assign(out, { reranker: HUB_RERANKER, nli: HUB_NLI });
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
