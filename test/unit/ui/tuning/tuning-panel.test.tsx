import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../../src/app/persist/settings';
import { TuningPanel } from '../../../../src/ui/tuning/TuningPanel';

const render = (mutate: (s: ReturnType<typeof defaultSettings>) => void) => {
  const s = defaultSettings();
  mutate(s);
  const noop = () => null;
  return renderToStaticMarkup(
    <TuningPanel
      settings={{ ...s, corrective: true, indexKind: 'flat' }}
      onChange={noop}
      lastRerankMs={null}
      indexKindInUse="flat"
      onReload={noop}
      onReset={noop}
    />,
  );
};

const checked = (html: string, testId: string) =>
  new RegExp(`<input[^>]*data-testid="${testId}"[^>]*checked`).test(html) ||
  new RegExp(`<input[^>]*checked[^>]*data-testid="${testId}"`).test(html);

describe('tuning panel: the conformance settings', () => {
  it('offers both final picks and both strip pools, showing the current choice', () => {
    const html = render(() => {});
    expect(html).toContain('Answer chosen from');
    expect(checked(html, 'pick-any-finished')).toBe(true);
    expect(checked(html, 'pick-deepest-level')).toBe(false);
    expect(checked(html, 'crag-pool-per-passage')).toBe(true);
    expect(html).toContain('data-testid="crag-sentences"');

    const ref = render((s) => {
      s.rank.finalPick = 'deepest-level';
      s.crag.stripPool = 'across-passages';
    });
    expect(checked(ref, 'pick-deepest-level')).toBe(true);
    expect(checked(ref, 'crag-pool-across-passages')).toBe(true);
  });
});

describe('tuning panel: where the critiques come from, and what an answer costs', () => {
  it('defaults to the automatic critique source and says why, next to the control', () => {
    const html = render(() => {});
    expect(checked(html, 'source-auto')).toBe(true);
    const control = html.indexOf('Critique source');
    const why = html.indexOf('data-testid="critique-source-why"');
    expect(control).toBeGreaterThan(-1);
    expect(why).toBeGreaterThan(control);
    // Next to it: nothing else with a legend comes between the control and the sentence.
    expect(html.slice(control, why)).not.toContain('<legend>');
    expect(html.slice(why)).toMatch(/native Self-RAG model/);
  });

  it('shows the relevance gate and the stop-at-the-first-answer switch with their defaults', () => {
    const html = render(() => {});
    expect(html).toMatch(/data-testid="relevance-gate"[^>]*value="0.5"|value="0.5"[^>]*data-testid="relevance-gate"/);
    expect(checked(html, 'stop-at-first-answer')).toBe(true);
    const off = render((s) => {
      s.decode.stopAtFirstAnswer = false;
    });
    expect(checked(off, 'stop-at-first-answer')).toBe(false);
  });
});
