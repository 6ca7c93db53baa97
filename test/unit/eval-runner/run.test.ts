import { describe, expect, it } from 'vitest';
import { DEFAULT_DECODE_SETTINGS, DEFAULT_RANK_SETTINGS } from '../../../src/core/defaults';
import type { Critic, Embedder, Generator, ScoredPassage, SegmentRequest, Writer } from '../../../src/core/ports';
import { CONFIGS } from '../../../src/eval-runner/configurations';
import { runEvaluation, type EvalPorts } from '../../../src/eval-runner/run';
import { summarise } from '../../../src/eval-runner/summary';
import type { EvalItem } from '../../../src/eval-runner/question-set';

const P = (id: string, text: string): ScoredPassage => ({ id, docId: id, title: id, text, index: 0, score: 0.5 });
const LIB = [P('tides#0', 'The Bay of Fundy has the largest tidal range GOOD.'), P('noise#0', 'Unrelated BAD text.')];

/** Quotes its passage; without one it answers "I do not know." Retrieval probability comes from the script. */
function generator(pRetrieve: number): Generator {
  return {
    async decideRetrieval() {
      return { retrieval: pRetrieve, noRetrieval: 1 - pRetrieve };
    },
    async generateSegments(reqs: SegmentRequest[]) {
      return reqs.map((r) => ({
        text: r.passage ? r.passage.text : 'I do not know.',
        ...(r.passage
          ? { rel: { relevant: 0.9, irrelevant: 0.1 }, sup: { full: 0.9, partial: 0.05, none: 0.05 } }
          : {}),
        use: [0, 0, 0, 0, 1] as [number, number, number, number, number],
        tokenCount: 5,
        done: true,
      }));
    },
  };
}

const writer: Writer = {
  async write(p) {
    if (p.includes('create one or more statements'))
      return p.includes('Fundy') ? 'The Bay of Fundy has the largest tidal range GOOD.' : 'I do not know.';
    if (p.includes('Generate a question')) return 'Where is the largest tidal range?';
    if (p.includes('Please extract')) return 'The Bay of Fundy has the largest tidal range GOOD.';
    if (p.includes('Extract at most three keywords')) return 'tidal range';
    throw new Error('unexpected prompt');
  },
};
const embedder: Embedder = {
  async embed(texts) {
    return texts.map((t) => Float32Array.from(t.toLowerCase().includes('tidal') ? [1, 0] : [0, 1]));
  },
};
/** NLI: entailed when the passage contains the text verbatim. */
const critic: Critic = {
  async relevance(_q, ps) {
    return ps.map(() => ({ relevant: 0.5, irrelevant: 0.5 }));
  },
  async support(pairs) {
    return pairs.map(({ passage, text }) =>
      passage.text.includes(text) ? { full: 0.9, partial: 0.05, none: 0.05 } : { full: 0.1, partial: 0.8, none: 0.1 },
    );
  },
};

function ports(pRetrieve: number): EvalPorts {
  return {
    generator: generator(pRetrieve),
    writer,
    embedder,
    critic,
    retriever: { retrieve: async (_q, k) => LIB.slice(0, k) },
    relevanceScores: async (_q, texts) => texts.map((t) => (t.includes('GOOD') ? 0.9 : 0.01)),
    models: { generator: 'G', writer: 'W', embedder: 'E', nli: 'N' },
  };
}

const items: EvalItem[] = [
  { id: 'fundy', line: 1, question: 'Which place has the largest tidal range?', answers: ['Bay of Fundy'] },
];
const opts = {
  decode: { ...DEFAULT_DECODE_SETTINGS, maxDepth: 1, passagesPerStep: 2 },
  rank: DEFAULT_RANK_SETTINGS,
  ragas: true,
  n: 1,
};

describe('runEvaluation', () => {
  it('compares the four configurations on the same question', async () => {
    let clock = 0;
    const records = await runEvaluation(items, ports(0.9), {
      ...opts,
      configs: CONFIGS.map((c) => c.id),
      now: () => (clock += 10),
    });
    const by = Object.fromEntries(records.map((r) => [r.config, r]));
    expect(records.map((r) => r.error)).toEqual([undefined, undefined, undefined, undefined]);
    expect(by['no-retrieval']).toMatchObject({ answer: 'I do not know.', correct: false, retrieved: false, cited: 0 });
    expect(by.rag).toMatchObject({ correct: true, retrieved: true, cited: 1, supported: 1 });
    expect(by['self-rag']).toMatchObject({ correct: true, retrieved: true });
    // Self-CRAG drops the BAD passage, so only the relevant one is left to cite.
    expect(by['self-crag']).toMatchObject({
      correct: true,
      retrieved: true,
      actions: ['correct'],
      contexts: [{ id: 'tides#0', title: 'tides#0' }],
    });
    expect(by['self-crag']?.corrections.map((c) => [c.action, c.strips?.map((s) => [s.passageId, s.kept])])).toEqual([
      ['correct', [['tides#0', true]]],
    ]);
    expect(by.rag?.corrections).toEqual([]);
    expect(by['self-crag']?.ragas?.faithfulness.score).toBe(1);
    expect(by['self-crag']?.ragas?.contextRelevance.score).toBe(1);
    expect(by['self-crag']?.ragas?.answerRelevance.score).toBeCloseTo(1, 6);
    expect(by['no-retrieval']?.ragas?.faithfulness.score).toBe(0);
    expect(by['no-retrieval']?.ragas?.contextRelevance.score).toBeNull();
    expect(by.rag?.answerMs).toBe(10);

    const summary = summarise(records, ['no-retrieval', 'self-crag']);
    expect(summary[0]).toMatchObject({
      accuracy: 0,
      retrievalFrequency: 0,
      citationSupport: null,
      faithfulness: 0,
      contextRelevance: null,
    });
    expect(summary[1]).toMatchObject({
      accuracy: 1,
      retrievalFrequency: 1,
      citationSupport: 1,
      faithfulness: 1,
      contextRelevance: 1,
    });
  });

  it('adaptive retrieval below the threshold does not retrieve', async () => {
    const [r] = await runEvaluation(items, ports(0.05), { ...opts, ragas: false, configs: ['self-rag'] });
    expect(r).toMatchObject({ retrieved: false, correct: false, ragas: null });
  });

  it('answers from the documents a question brings instead of the library', async () => {
    const withDocs: EvalItem[] = [
      { ...items[0]!, documents: [{ title: 'Doc', text: 'Only the Bay of Fundy fits GOOD.' }] },
    ];
    const [r] = await runEvaluation(withDocs, ports(0.9), { ...opts, ragas: false, configs: ['rag'] });
    expect(r?.answer).toBe('Only the Bay of Fundy fits GOOD.');
    expect(r?.contexts.map((c) => c.id)).toEqual(['fundy/doc0#0']);
  });

  it('records a failing question and goes on', async () => {
    const p = ports(0.9);
    p.retriever = {
      retrieve: async () => {
        throw new Error('index not built');
      },
    };
    const records = await runEvaluation([...items, { ...items[0]!, id: 'two', line: 2 }], p, {
      ...opts,
      ragas: false,
      configs: ['rag'],
    });
    expect(records.map((r) => r.error)).toEqual(['index not built', 'index not built']);
    expect(summarise(records, ['rag'])[0]).toMatchObject({ questions: 2, errors: 2, accuracy: null });
  });

  it('stops when aborted and keeps what finished', async () => {
    const ac = new AbortController();
    const records = await runEvaluation(items, ports(0.9), {
      ...opts,
      ragas: false,
      configs: ['no-retrieval', 'rag', 'self-rag'],
      signal: ac.signal,
      onRecord: () => ac.abort(),
    });
    expect(records.map((r) => r.config)).toEqual(['no-retrieval']);
  });
});
