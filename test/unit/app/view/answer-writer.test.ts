// An answer names the model and engine that wrote it, recorded when it was written (the loaded
// model, not the settings' choice); a turn kept before records were kept says "not recorded";
// a record from an imported file is untrusted.
import { describe, expect, it } from 'vitest';
import { initialAnswerState } from '../../../../src/app/state/answer';
import { WRITER_KEY, sanitizeWriter, writerOfTurn } from '../../../../src/app/view/answer-writer';
import { writerLabel, writtenBySentence } from '../../../../src/app/view/written-by';
import { threadForExport, threadForJson } from '../../../../src/app/view/past-answer';
import { answerOfTurn, writerPatch } from '../../../../src/app/wiring/turn-answer';
import { threadToMarkdown } from '../../../../src/core/conversation/export-markdown';
import type { Thread, Turn } from '../../../../src/core/conversation/thread';
import { DEFAULT_RANK_SETTINGS } from '../../../../src/core/defaults';
import type { AnswerTree } from '../../../../src/core/types';
import { passage } from '../../../doubles/fake-retriever';
import { settings } from '../../core/helpers';

const SMOL = { model: 'SmolLM2-135M-Instruct.Q4_1.gguf', engine: 'llama.cpp' };

const tree: AnswerTree = {
  question: 'Why tides?',
  settings: settings({ mode: 'always' }),
  candidates: [
    {
      id: 'a',
      parentId: null,
      depth: 0,
      text: 'The moon pulls the sea.',
      passage: { ...passage('sea#0', 'The moon pulls the sea.'), score: 1 },
      retrieve: { probs: null, retrieved: true, reason: 'always' },
      fromGenerator: {},
      tokenCount: 6,
      done: true,
    },
  ],
};

function turn(over: Partial<Turn>): Turn {
  return {
    id: 't1',
    parentId: null,
    children: [],
    question: 'Why tides?',
    rewrite: null,
    answer: tree,
    answerText: 'The moon pulls the sea.',
    status: 'done',
    settings: {},
    model: 'qwen2.5-1.5b',
    createdAt: 1,
    ...over,
  } as Turn;
}
const thread = (t: Turn): Thread =>
  ({
    id: 'th',
    title: 'Sea',
    turns: { [t.id]: t },
    roots: [t.id],
    selected: {},
    createdAt: 1,
    updatedAt: 1,
  }) as unknown as Thread;

describe('who wrote an answer', () => {
  it('is kept on the turn once known, as the loaded model, not the settings’ choice', () => {
    const patch = writerPatch(turn({}), { ...initialAnswerState, writer: SMOL })!;
    expect(patch.model).toBe(SMOL.model);
    expect(patch.settings[WRITER_KEY]).toEqual(SMOL);
    // Nothing new to keep: no patch.
    expect(writerPatch(turn({ settings: { [WRITER_KEY]: SMOL } }), { ...initialAnswerState, writer: SMOL })).toBeNull();
    expect(writerPatch(turn({}), { ...initialAnswerState, writer: 'not recorded' })).toBeNull();
    expect(answerOfTurn(turn(patch)).writer).toEqual(SMOL);
  });

  it('reads "not recorded" for a model-written turn kept without a record, and nothing for passages only', () => {
    expect(writerOfTurn(turn({}))).toBe('not recorded');
    expect(writerOfTurn(turn({ answer: null }))).toBeNull();
    expect(writtenBySentence('not recorded')).toMatch(/not recorded/);
    expect(writtenBySentence(SMOL)).toBe('Written by SmolLM2-135M-Instruct.Q4_1.gguf on llama.cpp.');
    expect(writerLabel(SMOL)).toBe('SmolLM2-135M-Instruct.Q4_1.gguf (llama.cpp)');
  });

  it('takes an imported record only when it is one, trimmed and bounded', () => {
    expect(sanitizeWriter({ model: '  a\n b ', engine: 'web-llm' })).toEqual({ model: 'a b', engine: 'web-llm' });
    for (const bad of [null, 'x', [], { model: 'm' }, { model: 1, engine: 'e' }, { model: ' ', engine: 'e' }])
      expect(sanitizeWriter(bad)).toBeNull();
    expect(sanitizeWriter({ model: 'm'.repeat(500), engine: 'e' })!.model).toHaveLength(200);
  });

  it('is named in the Markdown and JSON exports: the recorded writer, else "not recorded"', () => {
    const recorded = turn({ settings: { [WRITER_KEY]: SMOL }, model: SMOL.model });
    const md = threadToMarkdown(threadForExport(thread(recorded), DEFAULT_RANK_SETTINGS), {
      rank: DEFAULT_RANK_SETTINGS,
    });
    // (Markdown escapes the underscore.)
    expect(md).toContain('<sub>Model: SmolLM2-135M-Instruct.Q4\\_1.gguf (llama.cpp)</sub>');
    expect(md).not.toContain('qwen2.5-1.5b');
    const old = threadToMarkdown(threadForExport(thread(turn({})), DEFAULT_RANK_SETTINGS), {
      rank: DEFAULT_RANK_SETTINGS,
    });
    expect(old).toContain('<sub>Model: not recorded</sub>');
    expect(threadForJson(thread(recorded)).turns.t1!.settings[WRITER_KEY]).toEqual(SMOL);
    expect(threadForJson(thread(turn({}))).turns.t1!.settings[WRITER_KEY]).toBe('not recorded');
  });
});
