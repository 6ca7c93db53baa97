// The answers bench and the real tier count an answer as right when it holds a gold answer outside
// the question's own words (test/real/question-set.ts): where the gold stands in the question,
// an answer that only repeats the question must not count.
import { describe, expect, it } from 'vitest';
import { containsGold, containsGoldBeyondQuestion, questionSet } from '../../real/question-set';

const TOML_Q = 'What file format is Cargo.toml written in?';
const TOML = ['TOML', 'Tom’s Obvious, Minimal Language'];

describe('gold counted outside the question’s own words', () => {
  it('an answer that repeats the question does not hold "TOML"; one that names the format does', () => {
    // The plain match finds "toml" inside "Cargo.toml": that is what this function exists to refuse.
    expect(containsGold('Cargo.toml is written in a file format.', TOML)).toBe(true);
    expect(containsGoldBeyondQuestion('Cargo.toml is written in a file format.', TOML, TOML_Q)).toBe(false);
    expect(containsGoldBeyondQuestion("Cargo.toml's format is described in the book.", TOML, TOML_Q)).toBe(false);
    expect(containsGoldBeyondQuestion('What file format is Cargo.toml written in?', TOML, TOML_Q)).toBe(false);
    expect(containsGoldBeyondQuestion('Cargo.toml is written in TOML.', TOML, TOML_Q)).toBe(true);
    expect(containsGoldBeyondQuestion('It uses Tom’s Obvious, Minimal Language.', TOML, TOML_Q)).toBe(true);
  });

  it('a gold the question does not hold is found among the question’s words as before', () => {
    const q = 'Which cargo command builds a project?';
    expect(containsGoldBeyondQuestion('Run cargo build in the project.', ['cargo build'], q)).toBe(true);
    expect(containsGoldBeyondQuestion('Run cargo check first.', ['cargo build'], q)).toBe(false);
    // Whole-word rules still hold: "enum" is not in "enumerate".
    expect(containsGoldBeyondQuestion('call enumerate() on it', ['enum'], 'How do I number items?')).toBe(false);
  });

  it('in the labelled set, repeating any question never counts, and every evidence sentence does', () => {
    const { questions } = questionSet();
    const repeats = questions.filter((q) => containsGoldBeyondQuestion(q.question, q.answers, q.question));
    expect(repeats.map((q) => q.id)).toEqual([]);
    // A question whose gold can only be written in its own words (a choice between options it names)
    // cannot be counted fairly; its document's own sentence must count.
    const unanswerable = questions.filter((q) => !containsGoldBeyondQuestion(q.evidence, q.answers, q.question));
    expect(unanswerable.map((q) => q.id)).toEqual([]);
  });
});
