import { describe, expect, it } from 'vitest';
import { decode } from '../../../src/core/decode';
import { CoreInputError } from '../../../src/core/errors';
import type { GeneratedSegment } from '../../../src/core/ports';
import { rerank } from '../../../src/core/rerank';
import type { DecodeSettings } from '../../../src/core/types';
import { FakeRetriever, passage } from '../../doubles/fake-retriever';
import { ScriptedGenerator } from '../../doubles/scripted-generator';
import { rankWith, rel, settings, sup, use } from './helpers';

const Q = 'What is the boiling point of water?';
const retriever = () => new FakeRetriever(() => [{ ...passage('p1', 'Water boils at 100 °C.'), score: 1 }]);
const good = (): Omit<GeneratedSegment, 'tokenCount'> => ({
  text: 'At 100 °C.',
  rel: rel(0.9),
  sup: sup(1, 0, 0),
  use: use(5),
  done: true,
});

async function failure(p: Promise<unknown>): Promise<CoreInputError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(CoreInputError);
  return e as CoreInputError;
}

describe('bad settings are refused before any port is called', () => {
  it.each([
    ['zero beam width', { beamWidth: 0 }, /Beam width must be a whole number of at least 1; got 0/],
    ['negative beam width', { beamWidth: -2 }, /Beam width/],
    ['fractional beam width', { beamWidth: 1.5 }, /Beam width/],
    ['max depth below 1', { maxDepth: 0 }, /Maximum depth must be a whole number of at least 1/],
    ['no passages per step', { passagesPerStep: 0 }, /Passages per step/],
    ['threshold out of range', { threshold: 1.5 }, /threshold δ must be a number from 0 to 1; got 1.5/],
    ['NaN threshold', { threshold: NaN }, /threshold δ/],
    ['blend out of range', { blend: -0.1 }, /blend weight/],
    [
      'unknown mode',
      { mode: 'sometimes' as DecodeSettings['mode'] },
      /Retrieval mode must be one of adaptive, always, never/,
    ],
  ] as [string, Partial<DecodeSettings>, RegExp][])('%s', async (_name, bad, message) => {
    const gen = new ScriptedGenerator({ segments: () => ({ ...good() }) });
    const ret = retriever();
    const e = await failure(decode(Q, { generator: gen, retriever: ret }, settings(bad), rankWith()));
    expect(e.message).toMatch(message);
    expect(gen.calls).toEqual([]);
    expect(ret.calls).toEqual([]);
  });

  it('an empty question', async () => {
    const e = await failure(
      decode(
        '   ',
        { generator: new ScriptedGenerator({ segments: {} }), retriever: retriever() },
        settings(),
        rankWith(),
      ),
    );
    expect(e.message).toMatch(/question is empty/);
  });

  it('non-finite weights', async () => {
    const e = await failure(
      decode(
        Q,
        { generator: new ScriptedGenerator({ segments: {} }), retriever: retriever() },
        settings(),
        rankWith({ rel: Infinity }),
      ),
    );
    expect(e.message).toMatch(/Weight 'rel' must be a finite number/);
  });

  it('the evaluator as critique source without an evaluator', async () => {
    const e = await failure(
      decode(
        Q,
        { generator: new ScriptedGenerator({ segments: {} }), retriever: retriever() },
        settings({ critiqueSource: 'evaluator' }),
        rankWith(),
      ),
    );
    expect(e.message).toMatch(/needs the evaluator/);
  });

  it('re-ranking with NaN weights or an impossible stored beam width', () => {
    const tree = { question: Q, settings: settings(), candidates: [] };
    expect(() => rerank(tree, rankWith({ sup: NaN }))).toThrow(/Weight 'sup'/);
    expect(() => rerank({ ...tree, settings: settings({ beamWidth: 0 }) }, rankWith())).toThrow(/Beam width/);
  });
});

describe('malformed generator output gets a clear error and keeps what was finished', () => {
  it.each([
    [
      'NaN relevance',
      { rel: { relevant: NaN, irrelevant: 0.5 } },
      /ISREL probabilities must be finite, non-negative numbers; got \[NaN, 0.5\]/,
    ],
    ['negative support', { sup: { full: -1, partial: 0, none: 1 } }, /ISSUP .*got \[-1, 0, 1\]/],
    ['infinite utility', { use: [0, 0, 0, 0, Infinity] }, /ISUSE .*finite/],
    ['all-zero relevance', { rel: { relevant: 0, irrelevant: 0 } }, /ISREL probabilities are all zero/],
    ['wrong utility length', { use: [1, 0, 0] }, /ISUSE needs 5 probabilities/],
    ['positive log-prob', { logprob: 3 }, /log-probability must be a finite number ≤ 0/],
  ] as [string, Partial<GeneratedSegment>, RegExp][])('%s', async (_name, bad, message) => {
    const gen = new ScriptedGenerator({
      segments: (req) => (req.previous.length === 0 ? { ...good(), done: false } : { ...good(), ...bad }),
    });
    const e = await failure(
      decode(Q, { generator: gen, retriever: retriever() }, settings({ mode: 'always', beamWidth: 1 }), rankWith()),
    );
    expect(e.message).toMatch(/Generated segment 1 at depth 1/);
    expect(e.message).toMatch(message);
    expect(e.partial?.candidates.map((c) => c.text)).toEqual(['At 100 °C.']);
  });

  it('NaN or all-zero retrieval probabilities', async () => {
    for (const probs of [
      { retrieval: NaN, noRetrieval: 1 },
      { retrieval: 0, noRetrieval: 0 },
    ]) {
      const gen = new ScriptedGenerator({ retrieve: () => probs, segments: () => good() });
      const e = await failure(decode(Q, { generator: gen, retriever: retriever() }, settings(), rankWith()));
      expect(e.message).toMatch(/^Retrieval decision: Retrieve/);
    }
  });

  it('a generator that answers a batch with the wrong number of segments', async () => {
    const gen = new ScriptedGenerator({ segments: () => good() });
    gen.generateSegments = async () => [];
    const e = await failure(
      decode(Q, { generator: gen, retriever: retriever() }, settings({ mode: 'always' }), rankWith()),
    );
    expect(e.message).toMatch(/returned 0 segments for 1 requests/);
  });

  it('a retriever that returns passages without text', async () => {
    const bad = new FakeRetriever(() => [{ id: 'x', docId: 'x', title: 't', index: 0, score: 1 } as never]);
    const e = await failure(
      decode(
        Q,
        { generator: new ScriptedGenerator({ segments: () => good() }), retriever: bad },
        settings({ mode: 'always' }),
        rankWith(),
      ),
    );
    expect(e.message).toMatch(/passage without an id, title or text/);
  });
});
