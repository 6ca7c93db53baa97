import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MetricsChart } from '../../../../src/ui/eval-page/MetricsChart';
import { QuestionTable } from '../../../../src/ui/eval-page/QuestionTable';
import type { QuestionRecord } from '../../../../src/eval-runner/run';
import { SummaryTable } from '../../../../src/ui/eval-page/SummaryTable';
import { summarise } from '../../../../src/eval-runner/summary';

const evil = '<img src=x onerror="alert(1)">';
const record: QuestionRecord = {
  itemId: 'q1',
  config: 'self-crag',
  question: `Q ${evil}`,
  gold: ['gold'],
  answer: `The answer ${evil} gold`,
  correct: true,
  retrieved: true,
  cited: 1,
  supported: 1,
  contexts: [{ id: 'd#0', title: 'T' }],
  actions: ['correct'],
  corrections: [
    {
      action: 'correct',
      strips: [{ passageId: 'd#0', index: 0, text: `strip ${evil}`, score: 0.9, kept: true, source: 'retrieval' }],
    },
  ],
  abstained: false,
  ragas: {
    faithfulness: { score: 0.5, models: ['writer: W'], statements: [], unsupported: [`claim ${evil}`] },
    answerRelevance: { score: 0.25, models: ['writer: W'], questions: [], similarities: [] },
    contextRelevance: { score: null, models: ['writer: W'], extracted: [], totalSentences: 0 },
  },
  answerMs: 1200,
  ragasMs: 300,
};

describe('evaluation report rendering', () => {
  it('shows document and model text as text, never as HTML', () => {
    const html = renderToStaticMarkup(
      <QuestionTable
        items={[{ id: 'q1', line: 1, question: record.question, answers: ['gold'] }]}
        records={[record]}
        configs={['self-crag']}
      />,
    );
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=');
    expect(html).toContain('Knowledge strips: 1 kept, 0 dropped');
  });

  it('tabulates and charts the summary, with n/a for metrics no answer had', () => {
    const summary = summarise([record], ['self-crag']);
    const table = renderToStaticMarkup(<SummaryTable summary={summary} />);
    expect(table).toContain('data-metric="faithfulness">0.50<');
    expect(table).toContain('data-metric="contextRelevance">–<');
    expect(table).toContain('1.2 s');
    const chart = renderToStaticMarkup(<MetricsChart summary={summary} />);
    // Five metrics have a value (accuracy, retrieval frequency, faithfulness, answer relevance, citation support): one bar each, plus the legend swatch.
    expect(chart.match(/<rect [^>]*fill="#d62728"/g)).toHaveLength(5 + 1);
  });
});
