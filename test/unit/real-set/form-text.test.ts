// "Form text shown" in the answers bench and the real tier: the prompts' literal pieces found in
// what the page shows (test/real/form-text.ts), a measure that does not reuse the non-answer
// guard's function or threshold, so it can see what the guard let through.
import { describe, expect, it } from 'vitest';
import { PROMPT_TEXTS } from '../../../src/generator/prompts';
import { copiedShare } from '../../../src/generator/shared/non-answer';
import { formTextIn } from '../../real/form-text';
import { questionSet } from '../../real/question-set';

describe('form text in a shown answer', () => {
  it('finds a copied field label, instruction, instruction clause or reflection token', () => {
    expect(formTextIn('Question: What file format is Cargo.toml written in?')).toEqual(['question:']);
    expect(formTextIn('Cargo.toml is TOML.\nSo far the answer says: TOML')).toEqual(['so far the answer says:']);
    expect(formTextIn('It is TOML. Answer Yes or No.')).toEqual(['answer yes or no.']);
    expect(
      formTextIn("You answer questions about the user's documents from the passage they give you, then stop."),
    ).toEqual(["you answer questions about the user's documents from the passage they give you"]);
    expect(formTextIn('It is TOML [Relevant][Utility:5]')).toEqual(['[relevant]', '[utility:5]']);
  });

  it("sees a label in an otherwise real answer, where the guard's trigram share does not", () => {
    const shown =
      'Cargo.toml is written in TOML, a small configuration format that Cargo reads for every package. What comes next?';
    // Under half its word trigrams are the prompts'.
    expect(copiedShare(shown, PROMPT_TEXTS)).toBeLessThan(0.5);
    expect(formTextIn(shown)).toEqual(['what comes next?']);
    // The default showed this for html-027 (Qwen2.5-Coder-0.5B): the prompt's sentence with another closing mark.
    expect(
      formTextIn(
        'The question asks what does time print for an invalid backslash escape in its format string. The question asks what comes next.',
      ),
    ).toEqual(['what comes next?']);
  });

  it('finds every fixed sentence of the prompts when it is copied whole', () => {
    for (const t of PROMPT_TEXTS) expect(formTextIn(t), t).not.toEqual([]);
  });

  it('finds nothing in real documentation text or a label word inside a sentence', () => {
    const { questions, followUps } = questionSet();
    const found = [...questions, ...followUps].flatMap((q) =>
      formTextIn(q.evidence).length ? [`${q.id}: ${formTextIn(q.evidence).join(', ')}`] : [],
    );
    expect(found).toEqual([]);
    expect(formTextIn('To answer your question: Cargo.toml is written in TOML.')).toEqual([]);
  });
});
