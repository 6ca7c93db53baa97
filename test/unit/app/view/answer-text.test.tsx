// What the answer area shows of a model's text: a code fence as code in a candidate still
// streaming as in a finished segment (issue 47 showed the backticks), always as text, never as
// markup; and the beam tree's summary in proper English for one candidate.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { finishRun, initialAnswerState, startRun } from '../../../../src/app/state/answer';
import { runBeam } from '../../../../src/core/beam';
import { DEFAULT_RANK_SETTINGS } from '../../../../src/core/defaults';
import type { AnswerTree, Candidate } from '../../../../src/core/types';
import { AnswerView } from '../../../../src/ui/AnswerView';
import { BeamTree } from '../../../../src/ui/BeamTree';
import { passage } from '../../../doubles/fake-retriever';
import { rel, settings, sup, use } from '../../core/helpers';

const CODE = 'Make one with:\n```rust\nlet mut scores = HashMap::new();\n```\nThen insert <b>pairs</b>.';

function node(id: string, text: string): Candidate {
  return {
    id,
    parentId: null,
    depth: 0,
    text,
    passage: { ...passage('maps#0', 'A hash map stores keys and values.'), score: 1 },
    retrieve: { probs: null, retrieved: true, reason: 'always' },
    fromGenerator: {},
    rel: rel(0.9),
    sup: sup(1, 0, 0),
    use: use(5),
    tokenCount: 9,
    done: true,
  };
}

const tree = (text: string): AnswerTree => ({
  question: 'How do I store values by key?',
  settings: settings({ mode: 'always' }),
  candidates: [node('a', text)],
});

const render = (answer: Parameters<typeof AnswerView>[0]['answer']) =>
  renderToStaticMarkup(<AnswerView answer={answer} onOpenPassage={() => undefined} />);

describe('an answer’s text', () => {
  it('shows a streaming candidate’s code fence as code, not backticks, and its markup as text', () => {
    const running = startRun(initialAnswerState, 'How do I store values by key?', settings({ mode: 'always' }));
    const html = render({
      ...running,
      streaming: [{ key: 'k', depth: 0, parentId: null, passageId: 'maps#0', text: CODE.slice(0, 50) }],
    });
    expect(html).toContain('<pre class="answer-code" data-testid="answer-code" data-lang="rust"><code>let mut');
    expect(html).not.toContain('```');
    const done = render({
      ...running,
      streaming: [{ key: 'k', depth: 0, parentId: null, passageId: 'maps#0', text: CODE }],
    });
    expect(done).toContain('&lt;b&gt;pairs&lt;/b&gt;');
    expect(done).not.toContain('<b>');
  });

  it('shows a finished segment’s code fence the same way', () => {
    const t = tree(CODE);
    const s = settings({ mode: 'always' });
    const answer = finishRun(startRun(initialAnswerState, t.question, s), {
      tree: t,
      ranking: runBeam(t, DEFAULT_RANK_SETTINGS).ranking,
    } as never);
    // The segment's text (the beam tree's chips carry the raw text in their tooltips).
    const text = render(answer).match(/<div class="segment-text">[\s\S]*?<div class="segment-meta">/)?.[0] ?? '';
    expect(text).toContain('<code>let mut scores = HashMap::new();</code>');
    expect(text).not.toContain('```');
  });

  it('counts one candidate in the singular in the beam tree', () => {
    const t = tree('Bees make honey.');
    const html = renderToStaticMarkup(<BeamTree tree={t} ranking={runBeam(t, DEFAULT_RANK_SETTINGS).ranking} />);
    expect(html).toContain('Beam tree: 1 candidate over 1 step');
  });
});
