import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../src/app/persist/settings';
import { TuningPanel } from '../../../src/ui/TuningPanel';

const render = (mutate: (s: ReturnType<typeof defaultSettings>) => void) => {
  const s = defaultSettings();
  mutate(s);
  const noop = () => null;
  return renderToStaticMarkup(
    <TuningPanel
      rank={s.rank}
      decode={s.decode}
      onRank={noop}
      onDecode={noop}
      corrective={true}
      lastRerankMs={null}
      onCorrective={noop}
      crag={s.crag}
      onCrag={noop}
      retrieval={s.retrieval}
      onRetrieval={noop}
      indexKind="flat"
      indexKindInUse="flat"
      onIndexKind={noop}
      onReload={noop}
      onReset={noop}
    />,
  );
};

const checked = (html: string, testId: string) => new RegExp(`<input[^>]*data-testid="${testId}"[^>]*checked`).test(html) || new RegExp(`<input[^>]*checked[^>]*data-testid="${testId}"`).test(html);

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
