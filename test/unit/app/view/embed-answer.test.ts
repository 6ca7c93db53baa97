import { describe, expect, it } from 'vitest';
import { initialAnswerState, type AnswerState } from '../../../../src/app/state/answer';
import { answerMessage } from '../../../../src/app/view/embed-answer';
import { checkWebGpu } from '../../../../src/app/browser/webgpu';
import { rerank } from '../../../../src/core/rerank';
import { defaultSettings } from '../../../../src/app/persist/settings';
import type { Candidate } from '../../../../src/core/types';

const passage = { id: 'd#0', docId: 'd', title: 'Tides', text: 'The Moon pulls the sea.', index: 0, score: 0.8 };

describe('answer sent to an embedding page', () => {
  it('carries each chosen segment with its citation and normalised critique scores', () => {
    const c: Candidate = {
      id: 'c0',
      parentId: null,
      depth: 0,
      text: 'The Moon pulls the sea.',
      passage,
      retrieve: { probs: null, retrieved: true, reason: 'always' },
      rel: { relevant: 3, irrelevant: 1 },
      sup: { full: 1, partial: 0, none: 1 },
      use: [0, 0, 0, 0, 2],
      fromGenerator: {},
      tokenCount: 6,
      done: true,
    };
    const settings = defaultSettings();
    const tree = { question: 'q', settings: settings.decode, candidates: [c] };
    const a: AnswerState = {
      ...initialAnswerState,
      status: 'done',
      question: 'q',
      tree,
      ranking: rerank(tree, settings.rank),
    };
    expect(answerMessage(a, 'x', false)).toEqual({
      type: 'answer',
      id: 'x',
      question: 'q',
      aborted: false,
      evidenceOnly: false,
      segments: [{ text: c.text, citation: { passageId: 'd#0', title: 'Tides' }, isrel: 0.75, issup: 0.5, isuse: 1 }],
    });
  });

  it('sends passages in evidence-only mode and an error when the answer failed', () => {
    const ev: AnswerState = {
      ...initialAnswerState,
      status: 'done',
      question: 'q',
      evidence: { passages: [{ passage, rel: null }] },
    };
    const m = answerMessage(ev, undefined, true);
    expect(m).toMatchObject({ type: 'answer', evidenceOnly: true, segments: [{ text: passage.text, isrel: null }] });
    expect(answerMessage({ ...initialAnswerState, status: 'error', error: 'boom' }, 'y', false)).toEqual({
      type: 'error',
      id: 'y',
      message: 'boom',
    });
  });
});

describe('WebGPU check', () => {
  it('says why when there is no WebGPU or no adapter', async () => {
    expect((await checkWebGpu({})).ok).toBe(false);
    const none = await checkWebGpu({ gpu: { requestAdapter: async () => null } });
    expect(none).toMatchObject({ ok: false });
    expect(none.reason).toMatch(/adapter/);
    expect((await checkWebGpu({ gpu: { requestAdapter: async () => ({}) } })).ok).toBe(true);
  });
});
