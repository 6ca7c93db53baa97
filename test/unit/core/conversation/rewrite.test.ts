import { describe, expect, it } from 'vitest';
import { cleanRewrite, keepsFollowUp, newWords, rewritePrompt } from '../../../../src/core/conversation';

const history = [{ question: 'How do bees make honey?', answer: 'Foragers evaporate nectar.' }];

describe('follow-up rewrite', () => {
  it('makes no call for a first question', () => {
    expect(rewritePrompt([], 'How do bees make honey?')).toBeNull();
  });

  it('asks for a standalone question and forbids answering it, with the history and the follow-up', () => {
    const p = rewritePrompt(history, 'How long does that take them?')!;
    expect(p.system).toMatch(/standalone question/);
    expect(p.system).toMatch(/Do NOT answer/);
    expect(p.prompt).toContain('User: How do bees make honey?');
    expect(p.prompt).toContain('Follow-up question: How long does that take them?');
    expect(p.prompt.trimEnd().endsWith('Standalone question:')).toBe(true);
    expect(p.oneLine).toBe(true);
    expect(p.maxTokens).toBeGreaterThan(10);
  });

  it('takes the first line, without labels and quotes', () => {
    expect(cleanRewrite('Standalone question: "How long do bees take to make honey?"\nextra', 'And why?')).toEqual({
      query: 'How long do bees take to make honey?',
      usedRewrite: true,
    });
    expect(cleanRewrite('\n\n  How long do bees take?  ', 'And why?').query).toBe('How long do bees take?');
    expect(cleanRewrite('bees honey ripening time', 'And why?')).toEqual({
      query: 'bees honey ripening time',
      usedRewrite: true,
    });
  });

  it('falls back to the original when the output is empty, wordless, too long or an answer', () => {
    const orig = 'How long does that take them?';
    for (const out of [
      '',
      '   \n ',
      '???',
      'x'.repeat(400),
      'Bees usually spend between three and five days evaporating nectar inside the warm hive before sealing cells',
      'The documents were not consulted for this part, so it is not grounded in them.',
    ]) {
      const r = cleanRewrite(out, orig);
      expect(r.usedRewrite, out).toBe(false);
      expect(r.query).toBe(orig);
      expect(r.reason).toBeTruthy();
    }
  });

  it('falls back when the rewrite hands the follow-up back, or only swaps a pronoun or a filler word', () => {
    for (const [out, orig] of [
      ['and what about -R?', 'and what about -R?'],
      ['What about -R?', 'and what about -R?'],
      ['How do I use it with Rc?', 'and how do I use it with Rc?'],
      ['How do I fix this?', 'How do I fix that?'],
      // The prompt's own label handed back with the follow-up (Qwen 0.5B, given a worked example).
      ['Follow-up question: Which one is faster?', 'Which one is faster?'],
      ['Can you tell me more about it?', 'Tell me more about that.'],
    ]) {
      const r = cleanRewrite(out!, orig!);
      expect(r, out).toEqual({ query: orig, usedRewrite: false, reason: 'the rewrite added nothing to the follow-up' });
    }
  });

  it("falls back when the rewrite restates the earlier question and drops the follow-up's own words", () => {
    // Qwen2.5-Coder-0.5B's rewrites of labelled follow-ups (fu-020, fu-025, fu-012).
    for (const [out, orig] of [
      ['What does asn1_get_length_der return for an indefinite length?', 'And when the value is too big?'],
      ["How much extra memory does Memcheck's origin tracking use?", 'And how much slower is it?'],
      ['What function starts a new thread?', 'And how do I wait for it to finish?'],
    ]) {
      const r = cleanRewrite(out!, orig!);
      expect(r, out).toEqual({
        query: orig,
        usedRewrite: false,
        reason: "the rewrite dropped the follow-up's own words",
      });
    }
    // fu-027: the first question word for word, though it shares "system" with the follow-up.
    const first = 'Which system call does time get most of its numbers from?';
    expect(cleanRewrite(`${first}`, "And on systems that don't have it?", [first])).toEqual({
      query: "And on systems that don't have it?",
      usedRewrite: false,
      reason: 'the rewrite only restated the earlier question',
    });
    // The same question reworded ('What' for 'Which') adds only a word the earlier question has.
    expect(
      cleanRewrite('What system call does time get most of its numbers from?', "And on systems that don't have it?", [
        first,
      ]).reason,
    ).toBe("the rewrite dropped the follow-up's own words");
    expect(keepsFollowUp('How do I uninstall Rust?', 'And how do I uninstall it?')).toBe(true);
    expect(keepsFollowUp('Why do Rust programmers use the for loop most?', 'Why?')).toBe(true);
    expect(keepsFollowUp('How much slower is Memcheck with origin tracking?', 'And how much slower is it?')).toBe(true);
  });

  it('keeps a rewrite that brings in the earlier subject', () => {
    expect(cleanRewrite('How do I use RefCell with Rc?', 'and how do I use it with Rc?')).toEqual({
      query: 'How do I use RefCell with Rc?',
      usedRewrite: true,
    });
    expect(cleanRewrite('What does ssh -R do?', 'and what about -R?').usedRewrite).toBe(true);
    expect(newWords('How long do bees take to make honey?', 'How long does that take them?')).toEqual([
      'bees',
      'make',
      'honey',
    ]);
    expect(newWords('How do I fix those?', 'How do I fix that?')).toEqual([]);
  });
});
