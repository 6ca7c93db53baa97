// The answer area says plainly when there is no answer to show (the hard constraint dropped
// every first segment, or Self-CRAG abstained), and shows what the corrector did, as text.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { finishRun, initialAnswerState, startRun } from '../../../../src/app/state/answer';
import { emptyAnswerReason } from '../../../../src/app/view/answer-summary';
import { decode } from '../../../../src/core/decode';
import type { Corrector } from '../../../../src/core/ports';
import { rerank } from '../../../../src/core/rerank';
import { AnswerView } from '../../../../src/ui/AnswerView';
import { CorrectionDetails } from '../../../../src/ui/CorrectionDetails';
import { FakeRetriever, passage } from '../../../doubles/fake-retriever';
import { ScriptedGenerator } from '../../../doubles/scripted-generator';
import { rankWith, rel, settings, sup, use } from '../../core/helpers';

const Q = 'What is the tallest mountain?';
const passages = [passage('a#0', 'Everest is tall.'), passage('b#0', 'K2 is tall too.')].map((p, i) => ({
  ...p,
  score: 1 - i / 10,
}));
const evil = '<img src=x onerror="alert(1)">';

const view = (answer: Parameters<typeof AnswerView>[0]['answer']) =>
  renderToStaticMarkup(<AnswerView answer={answer} onOpenPassage={() => undefined} />);

describe('answer area without an answer', () => {
  it('says the hard constraint dropped every first segment, and the answer returns once it is off', async () => {
    const generator = new ScriptedGenerator({
      segments: () => ({ text: 'Unsupported claim.', rel: rel(0.9), sup: sup(0, 0.1, 0.9), use: use(3), done: true }),
    });
    const s = settings({ mode: 'always', passagesPerStep: 2 });
    const result = await decode(Q, { generator, retriever: new FakeRetriever(() => passages) }, s, rankWith({}, true));
    expect(result.ranking.best).toEqual([]);
    const html = view(finishRun(startRun(initialAnswerState, Q, s), result));
    expect(html).toContain('No answer: the hard constraint dropped every first segment (all 2)');
    expect(html).not.toContain('No segment was finished');

    const relaxed = rerank(result.tree, rankWith({}, false));
    expect(emptyAnswerReason(result.tree, relaxed)).toBeNull();
    expect(relaxed.best[0]?.candidate.text).toBe('Unsupported claim.');
  });

  it('says Self-CRAG abstained, and the why-panel shows its action and strips as text', async () => {
    const generator = new ScriptedGenerator({ segments: () => ({ text: 'never written', done: true }) });
    const corrector: Corrector = {
      correct: async () => ({
        action: 'incorrect',
        passages: [],
        noEvidence: 'abstain',
        rewrite: `mountain, tallest ${evil}`,
        strips: [
          { passageId: 'c#0', index: 0, text: `Kept strip ${evil}`, score: 0.8, kept: true, source: 'research' },
          {
            passageId: 'c#0',
            index: 1,
            text: 'Dropped strip.',
            score: 0.1,
            kept: false,
            dropped: 'below-threshold',
            source: 'research',
          },
        ],
      }),
    };
    const s = settings({ mode: 'always' });
    const result = await decode(
      Q,
      { generator, retriever: new FakeRetriever(() => passages), corrector },
      s,
      rankWith(),
    );
    expect(generator.generateCalls).toBe(0);
    const html = view(finishRun(startRun(initialAnswerState, Q, s, true), result));
    expect(html).toContain('No answer: corrective retrieval (Self-CRAG) found no reliable evidence');
    expect(html).toContain('Abstained: no reliable evidence was found for this step.');

    const correction = result.ranking.best[0]?.candidate.correction;
    expect(correction).toBeDefined();
    const details = renderToStaticMarkup(<CorrectionDetails correction={correction!} />);
    expect(details).toContain('<strong>Incorrect</strong>');
    expect(details).toContain('Knowledge strips: 1 kept, 1 dropped');
    expect(details).toMatch(/data-kept="true"><td>Kept strip &lt;img/);
    expect(details).toMatch(/data-kept="false"><td>Dropped strip\.<\/td>.*dropped: below the strip threshold/);
    expect(details).toContain('mountain, tallest &lt;img');
    expect(details).toContain('library re-search: passage 1');
    const titled = renderToStaticMarkup(
      <CorrectionDetails correction={correction!} titles={new Map([['c#0', 'Mountains']])} />,
    );
    expect(titled).toContain('library re-search: Mountains · passage 1');
    expect(details).not.toContain('<img');
  });
});
