// The answer page's corrector is built from the user's CRAG settings. The outside source
// sends the question away, so it must stay silent unless switched on AND online.
import { describe, expect, it } from 'vitest';
import { buildCorrector, type CorrectorParts } from '../../../../src/app/wiring/corrector-config';
import { defaultCrag, type CragChoice } from '../../../../src/app/persist/settings';
import { createWikipediaSearch } from '../../../../src/external/wikipedia';
import { markerScorer, passage, scriptedWriter, tableRetriever } from '../../core/crag/fakes';

const Q = 'Who built the lighthouse?';

function setup(online: { now: boolean }) {
  const requests: string[] = [];
  let made = 0;
  const fetchSpy = (async (input: RequestInfo | URL) => {
    requests.push(String(input));
    const body = {
      query: {
        pages: [{ pageid: 7, title: 'Lighthouse', index: 1, extract: 'The lighthouse was built by HIGH masons.' }],
      },
    };
    return new Response(JSON.stringify(body), { status: 200 });
  }) as typeof fetch;
  // The library only holds irrelevant text, so the corrector always looks further.
  const retriever = tableRetriever({ [Q]: [passage('a#0', 'Bees LOW make honey.')], 'lighthouse, built': [] });
  const parts: CorrectorParts = {
    score: markerScorer({ HIGH: 0.9, LOW: 0.01 }).score,
    writer: scriptedWriter(Array(10).fill('lighthouse, built')),
    retriever,
    online: () => online.now,
    external: async () => {
      made += 1;
      return createWikipediaSearch({ fetch: fetchSpy });
    },
  };
  return { parts, requests, made: () => made, retriever };
}

const crag = (o: Partial<CragChoice> = {}): CragChoice => ({ ...defaultCrag(), ...o });

describe('the answer page corrector', () => {
  it('never contacts the outside source with the switch off, even online', async () => {
    const s = setup({ now: true });
    const fix = await (await buildCorrector(s.parts, crag())).correct(Q, await s.retriever.retrieve(Q, 3));
    expect(s.made()).toBe(0);
    expect(s.requests).toEqual([]);
    expect(fix.details).toContain('external search is off');
    expect(fix.noEvidence).toBe('answer-without-retrieval');
  });

  it('never contacts the outside source while the page is offline, and does once it is back online', async () => {
    const online = { now: false };
    const s = setup(online);
    const corrector = await buildCorrector(s.parts, crag({ externalEnabled: true }));
    const offline = await corrector.correct(Q, await s.retriever.retrieve(Q, 3));
    expect(s.requests).toEqual([]);
    expect(offline.details).toMatch(/offline: Wikipedia \(en\) not consulted/);

    online.now = true;
    const back = await corrector.correct(Q, await s.retriever.retrieve(Q, 3));
    expect(s.requests).toHaveLength(1);
    expect(new URL(s.requests[0] ?? '').searchParams.get('gsrsearch')).toBe('lighthouse, built');
    expect(back.passages.map((p) => p.title)).toEqual(['Lighthouse']);
  });

  it('uses the thresholds and the no-evidence choice it is given, and refuses lower above upper', async () => {
    const s = setup({ now: true });
    const abstaining = await buildCorrector(s.parts, crag({ noEvidence: 'abstain' }));
    expect((await abstaining.correct(Q, await s.retriever.retrieve(Q, 3))).noEvidence).toBe('abstain');
    // With a lower threshold of 0, no score is below it: the library passage counts as Ambiguous, not Incorrect.
    const lenient = await buildCorrector(s.parts, crag({ lower: 0, stripThreshold: 0 }));
    const fix = await lenient.correct(Q, await s.retriever.retrieve(Q, 3));
    expect(fix.action).toBe('ambiguous');
    expect(fix.passages.map((p) => p.id)).toEqual(['a#0']);
    await expect(buildCorrector(s.parts, crag({ lower: 0.8, upper: 0.4 }))).rejects.toThrow(
      /"lower" \(0.8\) must not exceed "upper" \(0.4\)/,
    );
  });
});
