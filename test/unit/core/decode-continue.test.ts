import { describe, expect, it } from 'vitest';
import { decode } from '../../../src/core/decode';
import { FakeRetriever, passage } from '../../doubles/fake-retriever';
import { ScriptedGenerator, pathKey, scriptKey } from '../../doubles/scripted-generator';
import { bestTexts, rankWith, rel, settings, sup, use } from './helpers';

const Q = 'Who designed the Eiffel Tower?';
const p1 = passage('p1', "Gustave Eiffel's company designed the Eiffel Tower.", 'Eiffel Tower');

describe('a native model sure to [Continue to Use Evidence]', () => {
  // Both other tokens fell outside web-llm's top 5, so they read 0.
  const sure = { retrieval: 0, noRetrieval: 0, continueEvidence: 1 };

  it('continues with the parent passage instead of failing on an all-zero [Retrieval] / [No Retrieval] pair', async () => {
    const generator = new ScriptedGenerator({
      retrieve: { [pathKey([])]: { retrieval: 0.9, noRetrieval: 0.1 }, [pathKey(['First.'])]: sure },
      segments: {
        [scriptKey([], 'p1')]: { text: 'First.', rel: rel(0.9), sup: sup(1, 0, 0), use: use(5) },
        [scriptKey(['First.'], 'p1')]: { text: 'Second.', rel: rel(0.9), sup: sup(1, 0, 0), use: use(5), done: true },
      },
    });
    const retriever = new FakeRetriever(() => [{ ...p1, score: 1 }]);
    const result = await decode(Q, { generator, retriever }, settings({ passagesPerStep: 1 }), rankWith());
    expect(bestTexts(result)).toEqual(['First.', 'Second.']);
    expect(retriever.calls).toHaveLength(1);
    expect(result.ranking.best[1]?.candidate.retrieve).toMatchObject({ retrieved: false, reason: 'continue' });
  });

  it('goes on without retrieving when there is no passage to continue with', async () => {
    const generator = new ScriptedGenerator({
      retrieve: { [pathKey([])]: sure },
      segments: { [scriptKey([], null)]: { text: 'Eiffel designed it.', use: use(4), done: true } },
    });
    const retriever = new FakeRetriever(() => [{ ...p1, score: 1 }]);
    const result = await decode(Q, { generator, retriever }, settings(), rankWith());
    expect(bestTexts(result)).toEqual(['Eiffel designed it.']);
    expect(retriever.calls).toHaveLength(0);
  });
});
