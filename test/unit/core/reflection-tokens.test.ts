import { describe, expect, it } from 'vitest';
import {
  ALL_REFLECTION_TOKENS,
  ISREL,
  ISSUP,
  ISUSE,
  RETRIEVE,
  formatSelfRagPrompt,
  parseReflectionTokens,
  stripReflectionTokens,
} from '../../../src/core/reflection-tokens';

describe('reflection tokens', () => {
  it('spell the vocabulary exactly as the reference tokenizer does', () => {
    expect(ALL_REFLECTION_TOKENS).toEqual([
      '[Retrieval]',
      '[No Retrieval]',
      '[Continue to Use Evidence]',
      '[Relevant]',
      '[Irrelevant]',
      '[Fully supported]',
      '[Partially supported]',
      '[No support / Contradictory]',
      '[Utility:1]',
      '[Utility:2]',
      '[Utility:3]',
      '[Utility:4]',
      '[Utility:5]',
    ]);
  });

  it('parse a full generation into its tokens in order and the answer text', () => {
    const raw =
      `${RETRIEVE.retrieval}<paragraph>France\nParis is the capital of France.</paragraph>${ISREL.relevant}` +
      `The capital is Paris.${ISSUP.full}${ISUSE[4]}</s>`;
    expect(parseReflectionTokens(raw)).toEqual({
      tokens: ['[Retrieval]', '[Relevant]', '[Fully supported]', '[Utility:5]'],
      text: 'The capital is Paris.',
    });
  });

  it('strip tokens between words without gluing the words together', () => {
    expect(stripReflectionTokens(`Paris ${RETRIEVE.noRetrieval} is big. ${ISSUP.none}`)).toBe('Paris is big.');
    expect(stripReflectionTokens(`A${RETRIEVE.continueEvidence} B`)).toBe('A B');
  });

  it('drop an unclosed paragraph block from truncated output rather than show passage text as answer', () => {
    expect(stripReflectionTokens('Answer.[Retrieval]<paragraph>Title\nhalf a passa')).toBe('Answer.');
  });

  it('leave text without tokens untouched', () => {
    expect(stripReflectionTokens('The [bracketed] word <b>stays</b> as text.')).toBe(
      'The [bracketed] word <b>stays</b> as text.',
    );
  });

  it('format prompts exactly like the released Self-RAG models expect', () => {
    expect(formatSelfRagPrompt('Who wrote Emma?')).toBe('### Instruction:\nWho wrote Emma?\n\n### Response:\n');
    expect(formatSelfRagPrompt('Who wrote Emma?', { title: 'Emma', text: 'A novel by Jane Austen.' })).toBe(
      '### Instruction:\nWho wrote Emma?\n\n### Response:\n[Retrieval]<paragraph>Emma\nA novel by Jane Austen.</paragraph>',
    );
    expect(formatSelfRagPrompt('Q', { title: 'T', text: 'x' }, 'Earlier segment. ')).toBe(
      '### Instruction:\nQ\n\n### Response:\nEarlier segment. [Retrieval]<paragraph>T\nx</paragraph>',
    );
    expect(formatSelfRagPrompt('Q', null, 'Earlier.')).toBe('### Instruction:\nQ\n\n### Response:\nEarlier.');
  });
});
