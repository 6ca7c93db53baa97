import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { containsGold, parseQuestionSet } from '../../../src/eval-runner/question-set';

describe('question set (JSONL)', () => {
  it('parses questions, gold answers, optional ids and documents', () => {
    const { items, errors } = parseQuestionSet(
      '{"question": " Who? ", "answers": ["Ada"]}\n\n{"id": "x", "question": "Where?", "answers": ["London"], "documents": ["Plain text doc.", {"title": "T", "text": "Body."}]}\n',
    );
    expect(errors).toEqual([]);
    expect(items).toEqual([
      { id: 'q1', line: 1, question: 'Who?', answers: ['Ada'] },
      {
        id: 'x',
        line: 3,
        question: 'Where?',
        answers: ['London'],
        documents: [
          { title: 'Document 1', text: 'Plain text doc.' },
          { title: 'T', text: 'Body.' },
        ],
      },
    ]);
  });

  it('names the line of every bad entry', () => {
    const { errors } = parseQuestionSet(
      [
        '{"question": "ok", "answers": ["a"]}',
        '{not json',
        '{"question": "", "answers": ["a"]}',
        '{"question": "q", "answers": []}',
        '["q"]',
        '{"question": "q", "answers": ["a"], "documents": [{"title": "t"}]}',
        '{"id": "q1", "question": "dup", "answers": ["a"]}',
      ].join('\n'),
    );
    expect(errors).toEqual([
      expect.stringMatching(/^Line 2: not valid JSON/),
      'Line 3: "question" must be a non-empty string.',
      'Line 4: "answers" must be a non-empty list of gold answers.',
      'Line 5: expected a JSON object like {"question": "...", "answers": ["..."]}.',
      'Line 6: document 1 needs a non-empty "text".',
      'Line 7: the id "q1" is used twice.',
    ]);
  });

  it('refuses an empty file with a message', () => {
    expect(parseQuestionSet(' \n\n').errors).toEqual(['The question set is empty: it needs one JSON object per line.']);
  });

  it('the shipped sample set is valid and its gold answers are in the sample corpus', () => {
    const { items, errors } = parseQuestionSet(readFileSync('public/eval/sample-questions.jsonl', 'utf8'));
    expect(errors).toEqual([]);
    expect(items.length).toBeGreaterThanOrEqual(10);
    const corpus = ['honeybees', 'printing-press', 'rust-ownership', 'sourdough-bread', 'tides']
      .map((f) => readFileSync(`public/sample/${f}.md`, 'utf8'))
      .join('\n');
    for (const item of items) {
      const source = item.documents ? item.documents.map((d) => d.text).join('\n') : corpus;
      expect(containsGold(source, item.answers), `${item.id}: no gold answer in its source`).toBe(true);
    }
  });
});

describe('gold answer contained (PopQA accuracy)', () => {
  it('ignores case and spacing', () => {
    expect(containsGold('It was the  BAY of fundy, clearly.', ['Bay of Fundy'])).toBe(true);
    expect(containsGold('Nothing here', ['Fundy', 'Canada'])).toBe(false);
    expect(containsGold('anything', ['  '])).toBe(false);
  });
});
