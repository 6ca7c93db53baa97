// Which models the services load. A site can serve a local model pack under
// models/ and name it with `?modelPack=<folder>` (offline demos, tests): the
// evaluator then reads <folder>/embedder, <folder>/reranker and <folder>/nli.
import type { EvaluatorConfigInput } from '../evaluator/config';

const PACK_NAME = /^[A-Za-z0-9._-]{1,64}$/;

export function evaluatorInput(search: string): EvaluatorConfigInput {
  const pack = new URLSearchParams(search).get('modelPack');
  if (!pack || !PACK_NAME.test(pack) || pack.startsWith('.')) return {};
  return {
    source: 'local',
    embedder: `${pack}/embedder`,
    reranker: `${pack}/reranker`,
    nli: `${pack}/nli`,
  };
}
