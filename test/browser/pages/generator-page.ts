// Drives the real generator client (src/generator) from a page, so browser
// tests run it through the real worker and web-llm's real worker protocol:
// against the real engine in a production-mode build, against the scripted
// engine in the e2e build.
import type { Passage } from '../../../src/core/ports';
import { createGenerator, GeneratorError, type GeneratorConfig, type LoadProgress } from '../../../src/generator';

export interface CheckResult {
  ok: boolean;
  error?: { kind: string; message: string; suggestion: string; detail?: string };
  modelId?: string;
  progress: LoadProgress[];
  streamed: string[];
  segments?: unknown[];
  retrieval?: unknown;
  aborted?: boolean;
  afterAbort?: string;
  cost?: unknown;
}

const passage: Passage = {
  id: 'lyon#0',
  docId: 'lyon',
  title: 'Lyon',
  text: 'Lyon is a city in France where the Rhone meets the Saone. It is known for its cuisine.',
  index: 0,
};

async function check(config: GeneratorConfig, opts: { abort?: boolean } = {}): Promise<CheckResult> {
  const result: CheckResult = { ok: false, progress: [], streamed: [] };
  const g = createGenerator(config, { onProgress: (p) => result.progress.push(p) });
  try {
    await g.load();
    result.modelId = g.modelId;
    result.retrieval = await g.decideRetrieval({ question: 'Where is Lyon?', previous: [] });
    result.segments = await g.generateSegments([
      { question: 'Where is Lyon?', previous: [], passage, onText: (t) => result.streamed.push(t) },
    ]);
    if (opts.abort) {
      const ctrl = new AbortController();
      try {
        await g.generateSegments([
          { question: 'Where is Lyon?', previous: [], passage, signal: ctrl.signal, onText: () => ctrl.abort() },
        ]);
      } catch (e) {
        result.aborted = (e as Error).name === 'AbortError';
      }
      const [next] = await g.generateSegments([{ question: 'Where is Lyon?', previous: [], passage }]);
      result.afterAbort = next?.text;
    }
    result.cost = g.cost();
    result.ok = true;
  } catch (e) {
    const err = e instanceof GeneratorError ? e : new GeneratorError('unknown', String(e), '');
    result.error = {
      kind: err.kind,
      message: err.message,
      suggestion: err.suggestion,
      ...(err.detail ? { detail: err.detail } : {}),
    };
  } finally {
    await g.dispose();
  }
  return result;
}

(window as unknown as { generatorCheck: typeof check }).generatorCheck = check;
document.getElementById('status')!.textContent = 'loaded';
