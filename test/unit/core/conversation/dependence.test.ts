// A question is searched as itself unless it leans on the conversation: the examples are the
// issue's and questions people ask of documentation; none is from the labelled real set, which
// the conversation bench measures the rule on.
import { describe, expect, it } from 'vitest';
import { contentWords, questionDependence } from '../../../../src/core/conversation/dependence';

const before = ['How do I open a file for reading in Rust?'];
const kind = (q: string, earlier = before) => questionDependence(q, earlier).dependence;

describe('questionDependence', () => {
  it('calls the first question of a thread standalone, whatever it says', () => {
    expect(kind('And how do I close it?', [])).toBe('standalone');
    expect(kind('why?', ['  '])).toBe('standalone');
  });

  it('finds follow-ups: pronouns with nothing to point at, leading "and" / "what about", no subject', () => {
    for (const q of [
      'And how do I close it?',
      'what about -R?',
      'why?',
      'Why is that?',
      'How do I close it?',
      'Can you show me an example?',
      'And in a debug build?',
      'What does the third one say?',
      'Does that work on Windows too?',
      'what if it fails',
    ])
      expect([q, kind(q)]).toEqual([q, 'follow-up']);
  });

  it('lets a question with a subject of its own stand alone, pronouns about its own subject included', () => {
    for (const q of [
      'How do I pass an error up to the caller?',
      'What is the difference between a String and a &str?',
      'How does std::sync::mpsc send values between threads?',
      'Which cargo flag builds with optimisations?',
      'What does asn1_der_decoding return on success?',
      'When a struct is moved, are its fields copied?',
      'Is it possible to borrow a vector mutably twice?',
      'It is called shadowing when a variable is declared again: how does shadowing work?',
    ])
      expect([q, kind(q)]).toEqual([q, 'standalone']);
  });

  it('is unsure between the two: a continuation that names a new subject, a single word, a pointer beside a subject', () => {
    for (const q of [
      'And how do I uninstall rustup and the toolchains?',
      'Lifetimes?',
      'How does that interact with trait objects?',
    ])
      expect([q, kind(q)]).toEqual([q, 'unsure']);
  });

  it('says why', () => {
    expect(questionDependence('what about -R?', before).reason).toBe('it opens with "what about"');
    expect(questionDependence('How do I close it?', before).reason).toBe('"it" points at something said before');
    expect(questionDependence('How do I pass an error up to the caller?', before).reason).toBe(
      'it names its own subject (pass, error, up, caller)',
    );
  });

  it('counts identifiers as subject words, whole', () => {
    expect(contentWords('what about -R and Rc<T>?')).toEqual(['-r', 'rc<t>']);
    expect(contentWords('How does it work?')).toEqual([]);
  });
});
