import { describe, expect, it } from 'vitest';
import { createCorrector } from '../../../../src/core/crag/corrector';
import { fakeExternal, markerScorer, passage, scriptedWriter, tableRetriever } from './fakes';

// Markers: GOOD is clearly relevant (> upper 0.5), MAYBE sits between the thresholds, BAD is below lower 0.05.
const scorer = () => markerScorer({ GOOD: 0.9, MAYBE: 0.3, BAD: 0.01 }, 0.01);
const Q = 'Where was Ada Lovelace born?';

describe('createCorrector: Correct', () => {
  it('refines the retrieval and does not search again', async () => {
    const writer = scriptedWriter([]);
    const retriever = tableRetriever({});
    const c = createCorrector({ score: scorer().score, writer, retriever });
    const r = await c.correct(Q, [
      passage('a#0', 'Ada was born in London GOOD. She liked BAD cats. Cats are BAD pets. Still BAD.'),
      passage('b#0', 'Unrelated BAD text.'),
    ]);
    expect(r.action).toBe('correct');
    expect(r.noEvidence).toBeUndefined();
    expect(r.passages.map((p) => [p.id, p.text])).toEqual([
      ['a#0', 'Ada was born in London GOOD. She liked BAD cats.'],
    ]);
    expect(r.strips?.filter((s) => !s.kept).map((s) => s.index)).toEqual([1]);
    expect(writer.prompts).toHaveLength(0);
    expect(retriever.queries).toHaveLength(0);
  });
});

describe('createCorrector: Incorrect → rewrite and retry', () => {
  it('discards the retrieval, rewrites with the Table 5 prompt and re-searches the library with the keywords', async () => {
    const writer = scriptedWriter(['Ada Lovelace, born\nextra chatter']);
    const retriever = tableRetriever({
      'Ada Lovelace, born': [
        passage('old#0', 'Irrelevant BAD.'),
        passage('new#0', 'Ada Lovelace was born in London GOOD.'),
        passage('x#0', 'Also BAD.'),
      ],
    });
    const { score, calls } = scorer();
    const c = createCorrector({ score, writer, retriever });
    const r = await c.correct(Q, [passage('old#0', 'Irrelevant BAD.')]);
    expect(r.action).toBe('incorrect');
    expect(writer.prompts[0]).toContain('Extract at most three keywords separated by comma');
    expect(writer.prompts[0]?.endsWith(`question: ${Q} query:`)).toBe(true);
    expect(r.rewrite).toBe('Ada Lovelace, born');
    expect(retriever.queries).toEqual(['Ada Lovelace, born']);
    expect(r.passages.map((p) => p.id)).toEqual(['new#0']);
    // Re-searched passages are judged against the user's question, not the keywords.
    expect(calls.every((call) => call.question === Q)).toBe(true);
    expect(r.evaluated?.map((e) => [e.passageId, e.source])).toEqual([
      ['old#0', 'retrieval'],
      ['new#0', 'research'],
      ['x#0', 'research'],
    ]);
  });

  it('rewrites a question once, however many retrieval steps of its decode are corrected', async () => {
    const writer = scriptedWriter(['Ada Lovelace, born', 'Other, question']);
    const retriever = tableRetriever({});
    const c = createCorrector({ score: scorer().score, writer, retriever });
    await c.correct(Q, [passage('old#0', 'BAD.')]);
    const again = await c.correct(Q, [passage('old#1', 'BAD again.')]);
    expect(again.rewrite).toBe('Ada Lovelace, born');
    expect(writer.prompts).toHaveLength(1);
    expect(retriever.queries).toEqual(['Ada Lovelace, born', 'Ada Lovelace, born']);
    expect((await c.correct('Another question?', [])).rewrite).toBe('Other, question');
  });

  it('falls back to the question when the rewrite is empty', async () => {
    const writer = scriptedWriter(['   \n  ']);
    const retriever = tableRetriever({ [Q]: [passage('n#0', 'GOOD answer.')] });
    const r = await createCorrector({ score: scorer().score, writer, retriever }).correct(Q, []);
    expect(retriever.queries).toEqual([Q]);
    expect(r.passages.map((p) => p.id)).toEqual(['n#0']);
  });
});

describe('createCorrector: Ambiguous', () => {
  it('combines refined internal knowledge with the re-search', async () => {
    const writer = scriptedWriter(['query: "Ada, birthplace"']);
    const retriever = tableRetriever({ 'Ada, birthplace': [passage('r#0', 'Born in London GOOD.')] });
    const r = await createCorrector({ score: scorer().score, writer, retriever }).correct(Q, [
      passage('m#0', 'Ada MAYBE lived somewhere.'),
    ]);
    expect(r.action).toBe('ambiguous');
    expect(r.rewrite).toBe('Ada, birthplace');
    // Ordered by the evaluator's score: the re-searched GOOD passage first.
    expect(r.passages.map((p) => p.id)).toEqual(['r#0', 'm#0']);
  });
});

describe('createCorrector: no evidence', () => {
  const irrelevant = [passage('old#0', 'BAD one.')];
  const emptyLibrary = () => tableRetriever({});

  it('offline: reports no evidence and does not consult the external source', async () => {
    const external = fakeExternal([passage('w#0', 'GOOD wiki.')]);
    const r = await createCorrector({
      score: scorer().score,
      writer: scriptedWriter(['Ada']),
      retriever: emptyLibrary(),
      external,
      online: () => false,
      settings: { externalEnabled: true },
    }).correct(Q, irrelevant);
    expect(external.queries).toEqual([]);
    expect(r.passages).toEqual([]);
    expect(r.noEvidence).toBe('answer-without-retrieval');
    expect(r.details).toMatch(/offline: Fakepedia not consulted/);
    expect(r.details).toMatch(/no reliable evidence found/);
  });

  it('abstains when the setting says so', async () => {
    const r = await createCorrector({
      score: scorer().score,
      writer: scriptedWriter(['Ada']),
      retriever: emptyLibrary(),
      settings: { noEvidence: 'abstain' },
    }).correct(Q, irrelevant);
    expect(r.noEvidence).toBe('abstain');
    expect(r.passages).toEqual([]);
  });

  it('does not turn irrelevant re-search results into evidence', async () => {
    const retriever = tableRetriever({ Ada: [passage('junk#0', 'BAD junk.')] });
    const r = await createCorrector({ score: scorer().score, writer: scriptedWriter(['Ada']), retriever }).correct(
      Q,
      irrelevant,
    );
    expect(r.passages).toEqual([]);
    expect(r.noEvidence).toBe('answer-without-retrieval');
  });

  it('disabled: never calls the external source even when online', async () => {
    const external = fakeExternal([passage('w#0', 'GOOD wiki.')]);
    const r = await createCorrector({
      score: scorer().score,
      writer: scriptedWriter(['Ada']),
      retriever: emptyLibrary(),
      external,
    }).correct(Q, irrelevant);
    expect(external.queries).toEqual([]);
    expect(r.noEvidence).toBeDefined();
  });
});

describe('createCorrector: external source', () => {
  it('enabled and online: searches with the rewrite and refines the results', async () => {
    const external = fakeExternal([
      passage('w#0', 'Ada was born in London GOOD. Weather BAD talk. More BAD. Even more BAD.'),
    ]);
    const r = await createCorrector({
      score: scorer().score,
      writer: scriptedWriter(['Ada Lovelace, born']),
      retriever: tableRetriever({}),
      external,
      online: () => true,
      settings: { externalEnabled: true },
    }).correct(Q, [passage('old#0', 'BAD.')]);
    expect(external.queries).toEqual(['Ada Lovelace, born']);
    expect(r.passages.map((p) => p.text)).toEqual(['Ada was born in London GOOD. Weather BAD talk.']);
    expect(r.strips?.filter((s) => s.source === 'external').map((s) => s.kept)).toEqual([true, false]);
  });

  it('a failing external source is reported, not fatal', async () => {
    const r = await createCorrector({
      score: scorer().score,
      writer: scriptedWriter(['Ada']),
      retriever: tableRetriever({}),
      external: fakeExternal(new Error('HTTP 503')),
      settings: { externalEnabled: true },
    }).correct(Q, [passage('old#0', 'BAD.')]);
    expect(r.details).toMatch(/Fakepedia failed: HTTP 503/);
    expect(r.noEvidence).toBe('answer-without-retrieval');
  });
});

describe('createCorrector: cancellation', () => {
  it('stops before rewriting when aborted', async () => {
    const ac = new AbortController();
    const writer = scriptedWriter(['Ada']);
    const score = async (_q: string, texts: string[]) => {
      ac.abort();
      return texts.map(() => 0);
    };
    await expect(
      createCorrector({ score, writer, retriever: tableRetriever({}) }).correct(Q, [passage('a#0', 'x')], ac.signal),
    ).rejects.toThrow();
    expect(writer.prompts).toEqual([]);
  });
});
