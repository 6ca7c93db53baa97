import { describe, expect, it } from 'vitest';
import { DEFAULT_RANK_SETTINGS } from '../../../../src/core/defaults';
import {
  escapeMarkdown,
  threadFromJson,
  threadToJson,
  threadToMarkdown,
  THREAD_FORMAT_VERSION,
  updateTurn,
} from '../../../../src/core/conversation';
import { supportingSentence } from '../../../../src/app/view/highlight';
import { sampleThread } from './fixtures';

describe('Markdown export', () => {
  it('has every shown question, the answers with footnotes quoting the supporting sentence, and the badges as words', () => {
    const md = threadToMarkdown(sampleThread(), { rank: DEFAULT_RANK_SETTINGS, supporting: supportingSentence });
    expect(md).toMatch(/^# How do bees make honey\?/);
    expect(md).toContain('## 1. How do bees make honey?');
    expect(md).toContain('## 2. How long do they take? (version 2 of 2)');
    expect(md).toMatch(
      /Foragers collect nectar and evaporate it into honey\.\[\^1\] \*\(Relevant · Fully supported · Utility 4\/5\)\*/,
    );
    expect(md).toContain(
      '[^1]: Honeybees, passage 1: “Foragers collect nectar and evaporate it into honey over several days.”',
    );
    expect(md).not.toContain('Honey comes from flowers'); // the losing candidate is not the answer
  });

  it('says when a turn stopped, and escapes text so it stays text', () => {
    const t = updateTurn(sampleThread(), 'q2b', { status: 'stopped', question: '<img src=x> *bold*' }, 9);
    const md = threadToMarkdown(t, { rank: DEFAULT_RANK_SETTINGS });
    expect(md).toContain('\\<img src=x\\> \\*bold\\*');
    expect(md).toContain('Stopped before the end.');
    expect(escapeMarkdown('1. list')).toBe('1\\. list');
  });
});

describe('JSON export and import', () => {
  it('round-trips the whole tree, every sibling, settings and model', () => {
    const t = sampleThread();
    const back = threadFromJson(threadToJson(t));
    expect(back).toEqual(t);
    expect(JSON.parse(threadToJson(t)).version).toBe(THREAD_FORMAT_VERSION);
  });

  it('refuses a malformed file or one from a newer version with a clear reason', () => {
    const good = JSON.parse(threadToJson(sampleThread()));
    const cases: [unknown, RegExp][] = [
      ['not json', /not valid JSON/],
      [{ format: 'other' }, /not a thread/],
      [{ ...good, version: THREAD_FORMAT_VERSION + 1 }, /newer version/],
      [{ ...good, version: undefined }, /version is missing/],
      [{ ...good, thread: { ...good.thread, roots: ['ghost'] } }, /not in the file/],
      [
        {
          ...good,
          thread: { ...good.thread, turns: { ...good.thread.turns, q1: { ...good.thread.turns.q1, question: '' } } },
        },
        /no question/,
      ],
      [
        {
          ...good,
          thread: { ...good.thread, turns: { ...good.thread.turns, q2: { ...good.thread.turns.q2, parentId: null } } },
        },
        /wrong parent/,
      ],
      [
        {
          ...good,
          thread: { ...good.thread, turns: { ...good.thread.turns, q2: { ...good.thread.turns.q2, status: 'odd' } } },
        },
        /unknown status/,
      ],
    ];
    for (const [input, why] of cases) {
      const text = typeof input === 'string' ? input : JSON.stringify(input);
      expect(() => threadFromJson(text)).toThrow(why);
    }
  });
});
