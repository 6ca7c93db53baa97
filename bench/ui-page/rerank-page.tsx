// Bench page: a 6-segment answer with 5 candidates per step, decoded through the
// real core with the seeded synthetic doubles, rendered by the real answer view;
// then ISSUP slider moves are timed from intent to committed DOM.
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { createController } from '../../src/app/wiring/controller';
import { defaultSettings } from '../../src/app/persist/settings';
import { decode } from '../../src/core/decode';
import { rerank } from '../../src/core/rerank';
import { AnswerView } from '../../src/ui/AnswerView';
import { useStore } from '../../src/ui/hooks';
import { syntheticGenerator, syntheticRetriever } from '../../test/doubles/synthetic-answer';

declare global {
  interface Window {
    __bench?: Promise<{
      renderMs: number[];
      rerankMs: number[];
      segments: number;
      perStep: number;
      changedMoves: number;
    }>;
  }
}

const settings = defaultSettings();
settings.decode = { ...settings.decode, mode: 'always', passagesPerStep: 5, beamWidth: 2, maxDepth: 6 };
const generator = syntheticGenerator({ seed: 5, depth: 6 });
const controller = createController({
  ports: {
    generator: async () => generator,
    retriever: async () => syntheticRetriever(),
    critic: async () => undefined,
  },
  decode,
  rerank,
  settings,
});

function View() {
  const s = useStore(controller, controller.getState);
  return <AnswerView answer={s.answer} onOpenPassage={() => undefined} />;
}

const root = createRoot(document.getElementById('root')!);
flushSync(() => root.render(<View />));

window.__bench = (async () => {
  await controller.ask('Why does the sea have tides?');
  await new Promise((r) => setTimeout(r, 50));
  const state = controller.getState().answer;
  const tree = state.tree!;
  const renderMs: number[] = [];
  const rerankMs: number[] = [];
  let changedMoves = 0;
  const base = controller.getState().settings.rank;
  for (let i = 0; i < 200; i++) {
    const sup = (i % 31) / 10;
    const rank = { ...base, weights: { ...base.weights, sup } };
    const t0 = performance.now();
    rerank(tree, rank);
    rerankMs.push(performance.now() - t0);
    const t1 = performance.now();
    flushSync(() => controller.change({ rank }));
    renderMs.push(performance.now() - t1);
    if (controller.getState().answer.changed.length > 0) changedMoves++;
  }
  const perStep = tree.candidates.filter((c) => c.depth === 0).length;
  return { renderMs, rerankMs, segments: state.ranking!.best.length, perStep, changedMoves };
})();
