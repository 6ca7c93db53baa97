// Issue 46: what a follow-up's prompts show the model of its thread. Both engines build their
// prompts from one module (src/generator/prompts.ts): the chat turns a prompted model answers (web-llm
// and llama.cpp alike) and the released format a native Self-RAG model reads. The question they
// are given is the one the conversation code makes (app/wiring/conversation-ask.ts): the follow-up
// with the earlier questions, never the earlier answers, which a small model pastes.
import { describe, expect, it } from 'vitest';
import {
  fitHistory,
  formatQuestionTurn,
  historyText,
  type HistoryTurn,
  questionWithHistory,
} from '../../../src/core/conversation/history';
import type { Passage } from '../../../src/core/ports';
import {
  answerMessages,
  decisionMessages,
  nativeDecisionPrompt,
  nativeSegmentPrompt,
} from '../../../src/generator/prompts';

const EARLIER: HistoryTurn = {
  question: 'How do I store values that I look up by a key?',
  answer: 'Use a HashMap: it stores each value under its key.',
};
const passage: Passage = {
  id: 'maps#2',
  docId: 'maps',
  title: 'Hash maps',
  text: 'To update a value in a HashMap, insert it again under the same key.',
  index: 2,
};

/** The follow-up as the generator receives it: its search query, then the earlier turns as the conversation code writes them. */
function followUp(): string {
  const h = fitHistory([EARLIER], 1024, (s) => s.split(/\s+/).length, undefined, formatQuestionTurn);
  return questionWithHistory('And how do I update one?', historyText(h, formatQuestionTurn));
}

describe("a follow-up's prompts (issue 46)", () => {
  const prompts: [string, string][] = [
    [
      'the answer turn',
      answerMessages(followUp(), [], passage)
        .map((m) => m.content)
        .join('\n'),
    ],
    [
      'a later segment',
      answerMessages(followUp(), ['Call insert.'], passage)
        .map((m) => m.content)
        .join('\n'),
    ],
    [
      'the retrieval decision',
      decisionMessages(followUp(), [])
        .map((m) => m.content)
        .join('\n'),
    ],
    ['a native segment', nativeSegmentPrompt(followUp(), [], passage)],
    ['a native decision', nativeDecisionPrompt(followUp(), [])],
  ];
  it.each(prompts)('%s carries the earlier question, not the earlier answer', (_, prompt) => {
    expect(prompt).toContain('And how do I update one?');
    expect(prompt).toContain(`Earlier in this conversation:\nUser: ${EARLIER.question}`);
    expect(prompt).not.toContain(EARLIER.answer);
    expect(prompt).not.toContain('Assistant: ');
  });
});
