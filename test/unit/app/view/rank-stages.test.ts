import { describe, expect, it } from 'vitest';
import { stagesRan } from '../../../../src/app/view/rank-stages';

describe('which retrieval stages ran for a list', () => {
  it('a stage no passage has a place in did not run; one passage with a place says it ran', () => {
    expect(stagesRan([{ lexical: 1 }, { lexical: 2 }, undefined])).toEqual({ dense: false, rerank: false });
    expect(stagesRan([{ lexical: 1 }, { lexical: 2, dense: 4, rerank: 0.3 }])).toEqual({ dense: true, rerank: true });
    expect(stagesRan([])).toEqual({ dense: false, rerank: false });
  });
});
