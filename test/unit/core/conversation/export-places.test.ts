// The exports say where each cited passage stands: the page of a PDF, the heading path of a
// chapter; a passage stored before places were recorded keeps its passage number.
import { describe, expect, it } from 'vitest';
import { supportingSentence } from '../../../../src/app/view/highlight';
import { threadFromJson, threadToJson, threadToMarkdown } from '../../../../src/core/conversation';
import { DEFAULT_RANK_SETTINGS } from '../../../../src/core/defaults';
import type { Thread } from '../../../../src/core/conversation';
import { bees, sampleThread } from './fixtures';

/** The sample thread with every citation of `bees` given a place. */
function placed(source: NonNullable<typeof bees.source>): Thread {
  return JSON.parse(
    JSON.stringify(sampleThread()).replaceAll(
      `"id":"${bees.id}"`,
      `"id":"${bees.id}","source":${JSON.stringify(source)}`,
    ),
  ) as Thread;
}

describe('places in the exports', () => {
  it('Markdown footnotes name the page, or the heading path', () => {
    const md = threadToMarkdown(placed({ page: 12 }), { rank: DEFAULT_RANK_SETTINGS, supporting: supportingSentence });
    expect(md).toContain('[^1]: Honeybees, p. 12: “Foragers collect nectar');
    const ch = threadToMarkdown(placed({ headings: ['Honeybees', 'Making honey'] }), {
      rank: DEFAULT_RANK_SETTINGS,
      supporting: supportingSentence,
    });
    expect(ch).toContain('[^1]: Honeybees › Making honey: “Foragers collect nectar');
  });

  it('JSON keeps the place with every passage and reads it back', () => {
    const back = threadFromJson(threadToJson(placed({ page: 3, pageEnd: 4 })));
    const cited = Object.values(back.turns)
      .flatMap((t) => t.answer?.candidates ?? [])
      .filter((c) => c.passage?.id === bees.id);
    expect(cited.length).toBeGreaterThan(0);
    for (const c of cited) expect(c.passage?.source).toEqual({ page: 3, pageEnd: 4 });
  });
});
