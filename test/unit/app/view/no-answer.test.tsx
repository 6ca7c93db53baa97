// When every candidate was withheld the answer area says the model could not answer from these
// passages and why, lists the passages, and keeps what the model wrote folded and labelled: never
// as the answer. The Markdown and JSON exports and a thread's past turns say the same, never the text.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { finishRun, initialAnswerState, startRun } from '../../../../src/app/state/answer';
import { noAnswerOf, withheldLabel, withheldMessage, withheldWhy } from '../../../../src/app/view/no-answer';
import { pastAnswerText, threadForExport, threadForJson, turnWithheld } from '../../../../src/app/view/past-answer';
import { threadToMarkdown } from '../../../../src/core/conversation/export-markdown';
import type { Thread, Turn } from '../../../../src/core/conversation/thread';
import { runBeam } from '../../../../src/core/beam';
import { DEFAULT_RANK_SETTINGS } from '../../../../src/core/defaults';
import type { AnswerTree, Candidate } from '../../../../src/core/types';
import { AnswerView } from '../../../../src/ui/AnswerView';
import { passage } from '../../../doubles/fake-retriever';
import { rel, settings, sup, use } from '../../core/helpers';

const FORM = "You answer questions about the user's documents from the passage they give you.";
const P1 = { ...passage('bees#0', 'Bees make honey from nectar.'), score: 1 };
const P2 = { ...passage('bees#1', 'Nectar is dried in the hive.'), score: 0.9 };

function node(id: string, over: Partial<Candidate>): Candidate {
  return {
    id,
    parentId: null,
    depth: 0,
    text: FORM,
    passage: P1,
    retrieve: { probs: null, retrieved: true, reason: 'always' },
    fromGenerator: {},
    rel: rel(0.9),
    sup: sup(1, 0, 0),
    use: use(5),
    tokenCount: 9,
    done: true,
    ...over,
  };
}

const allWithheld = (): AnswerTree => ({
  question: 'How do bees make honey?',
  settings: settings({ mode: 'always' }),
  candidates: [
    node('a', { withheld: { reason: 'form-text', detail: 'The model repeated the words of its own instructions.' } }),
    node('b', { passage: P2, withheld: { reason: 'cut-off', detail: 'The model was stopped at its token limit.' } }),
  ],
});

function turn(over: Partial<Turn>): Turn {
  return {
    id: 't1',
    parentId: null,
    children: [],
    question: 'How do bees make honey?',
    rewrite: null,
    answer: allWithheld(),
    answerText: '',
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
    title: 'Bees',
    turns: { [t.id]: t },
    roots: [t.id],
    selected: {},
    createdAt: 1,
    updatedAt: 1,
  }) as unknown as Thread;

describe('an answer with every candidate withheld', () => {
  it('reads as no answer, with the reasons in plain words, and is not one when anything is an answer', () => {
    const { ranking } = runBeam(allWithheld(), DEFAULT_RANK_SETTINGS);
    expect(withheldMessage(ranking)).toBe(
      'No answer: the model could not answer from these passages (it only repeated its instructions and it was cut off before it finished a sentence).',
    );
    expect(withheldWhy([])).toBe('nothing it wrote was an answer');
    const tree = allWithheld();
    tree.candidates.push(node('c', { text: 'Bees make honey from nectar.', withheld: undefined }));
    expect(noAnswerOf(tree, runBeam(tree, DEFAULT_RANK_SETTINGS).ranking)).toBeNull();
    expect(withheldLabel({ withheld: undefined })).toBeNull();
  });

  it('lists each passage once, in order, and what was written with why', () => {
    const tree = allWithheld();
    tree.candidates.push(node('a2', { withheld: { reason: 'form-text', detail: 'again' } }));
    const view = noAnswerOf(tree, runBeam(tree, DEFAULT_RANK_SETTINGS).ranking)!;
    expect(view.passages.map((p) => p.passage.id)).toEqual(['bees#0', 'bees#1']);
    expect(view.written.map((w) => [w.candidate.id, w.reason])).toEqual([
      ['a', 'form-text'],
      ['b', 'cut-off'],
      ['a2', 'form-text'],
    ]);
  });

  it('shows the notice and the passages in the answer area, the written text only folded and labelled', () => {
    const s = settings({ mode: 'always' });
    const tree = allWithheld();
    const result = { tree, ranking: runBeam(tree, DEFAULT_RANK_SETTINGS).ranking };
    const answer = finishRun(startRun(initialAnswerState, tree.question, s), result as never);
    const html = renderToStaticMarkup(<AnswerView answer={answer} onOpenPassage={() => undefined} />);
    expect(html).toContain('could not answer from these passages');
    expect(html).toContain('Bees make honey from nectar.');
    expect(html).not.toContain('data-testid="segment"');
    // The copied instructions appear once, inside the folded list of what was not an answer.
    const folded = html.slice(html.indexOf('data-testid="withheld-written"'));
    expect(folded).toContain('What the model wrote instead');
    expect(html.split('the passage they give you').length - 1).toBe(
      folded.split('the passage they give you').length - 1,
    );
    expect(html).not.toMatch(/<details[^>]*withheld-written[^>]* open/);
  });

  it('a past turn and the Markdown export say why, never the text; the JSON keeps the tree without it', () => {
    const t = turn({});
    expect(turnWithheld(t, DEFAULT_RANK_SETTINGS)).toMatch(/could not answer from these passages/);
    expect(pastAnswerText(t, DEFAULT_RANK_SETTINGS)).toMatch(/could not answer from these passages/);
    expect(pastAnswerText(turn({ answerText: 'Bees make honey.' }), DEFAULT_RANK_SETTINGS)).toBe('Bees make honey.');
    const md = threadToMarkdown(threadForExport(thread(t), DEFAULT_RANK_SETTINGS), { rank: DEFAULT_RANK_SETTINGS });
    expect(md).toMatch(/could not answer from these passages/);
    expect(md).not.toContain('the passage they give you');
    const json = threadForJson(thread(t));
    expect(JSON.stringify(json)).not.toContain('the passage they give you');
    const kept = json.turns.t1!.answer!.candidates;
    expect(kept.map((c) => c.withheld?.reason)).toEqual(['form-text', 'cut-off']);
    // Imported and exported again, it is the same.
    expect(threadForJson(json)).toEqual(json);
    // The kept thread itself is untouched.
    expect(t.answer!.candidates[0]!.text).toBe(FORM);
  });
});
