// Issue 46: in a thread, Qwen2.5-Coder-0.5B answered the follow-up "And how do I update one?" with
// the first turn's answer, word for word, and the page showed it. Here the real conversation,
// controller and decode drive the shared Self-RAG generator (the web-llm driver over the scripted
// engine) with a fake retriever and critic:
// - the answer-writing prompts of a follow-up carry the earlier question, never the earlier answer;
// - a candidate that repeats an earlier turn's answer is withheld ('earlier-answer'), and when
//   every candidate is, the page says so and shows the passages, with no error;
// - a follow-up answered in its own words is kept.
import 'fake-indexeddb/auto';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../../src/app/persist/settings';
import { ThreadStore } from '../../../../src/app/persist/thread-store';
import { noAnswerOf } from '../../../../src/app/view/no-answer';
import { createController } from '../../../../src/app/wiring/controller';
import { createConversation } from '../../../../src/app/wiring/conversation';
import { activePath } from '../../../../src/core/conversation';
import { decode } from '../../../../src/core/decode';
import { rerank } from '../../../../src/core/rerank';
import { EngineGenerator } from '../../../../src/generator/webllm/decoder';
import type { ChatEngine } from '../../../../src/generator/webllm/engine';
import { AnswerView } from '../../../../src/ui/AnswerView';
import { defaultReply } from '../../../doubles/default-script';
import { FakeCritic } from '../../../doubles/fake-critic';
import { FakeRetriever, passage } from '../../../doubles/fake-retriever';
import { type ScriptCall, ScriptedEngine } from '../../../doubles/scripted-engine';

const FIRST_QUESTION = 'How do I store values that I look up by a key?';
const FIRST_ANSWER = 'Use a HashMap: it stores each value under its key, and get looks the value up by that key.';
const FOLLOW_UP = 'And how do I update one?';
const OWN_ANSWER = 'Insert the value again under the same key; the old value is replaced.';

let n = 0;
const stores: ThreadStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

/** The answer turn (free text, written from a passage), as opposed to a critique turn or the rewrite. */
const isAnswerTurn = (call: ScriptCall) =>
  call.kind === 'chat' && !call.grammar && call.last.includes('Passage from "');

/** A thread whose model writes `followUp` as every candidate's answer to the follow-up, and `rewrite` (if any) as its standalone form. */
function thread(followUp: string, rewrite?: string) {
  const engine = new ScriptedEngine({
    script: (call) => {
      if (!isAnswerTurn(call)) return defaultReply(call);
      return { text: call.last.includes(`Question: ${FIRST_QUESTION}`) ? FIRST_ANSWER : followUp };
    },
  });
  const generator = new EngineGenerator(engine as unknown as ChatEngine);
  const retriever = new FakeRetriever([
    passage('maps#1', 'A HashMap stores values that you look up by a key; get returns the value for a key.'),
    passage('maps#2', 'To update a value in a HashMap, insert it again under the same key: the old value is replaced.'),
  ]);
  const settings = defaultSettings();
  settings.decode = { ...settings.decode, mode: 'always', passagesPerStep: 2, beamWidth: 2, maxDepth: 1 };
  const controller = createController({
    ports: { generator: async () => generator, retriever: async () => retriever, critic: async () => new FakeCritic() },
    decode,
    rerank,
    settings,
  });
  const conversation = createConversation({
    controller,
    store: ThreadStore.open(`thread-guard-${++n}`).then((s) => (stores.push(s), s)),
    // Without a rewrite the follow-up is searched with the earlier question joined.
    complete: async () => (rewrite ? async () => ({ text: rewrite, promptTokens: 1, completionTokens: 1 }) : null),
    model: () => ({ id: 'scripted', contextWindow: 4096 }),
    saveEveryMs: 1,
  });
  /** The answer-writing prompts sent since `from` (every message of each). */
  const answerPrompts = (from: number) =>
    engine.calls
      .slice(from)
      .filter((c) => isAnswerTurn(c.call))
      .map((c) => c.call.messages.map((m) => m.content).join('\n'));
  return { engine, controller, conversation, answerPrompts, answer: () => controller.getState().answer };
}

describe('the non-answer guard knows the thread (issue 46)', () => {
  it("shows the follow-up's answer prompts the earlier question, never the earlier answer", async () => {
    const t = thread(OWN_ANSWER);
    await t.conversation.start();
    await t.conversation.ask(FIRST_QUESTION);
    expect(t.answer().ranking?.best[0]?.candidate.text).toBe(FIRST_ANSWER);

    const from = t.engine.calls.length;
    await t.conversation.ask(FOLLOW_UP);
    const prompts = t.answerPrompts(from);
    expect(prompts.length).toBeGreaterThan(0);
    for (const p of prompts) {
      // Asked as typed (not as the search query joined from both questions), the earlier one beside it.
      expect(p).toContain(`Question: ${FOLLOW_UP}\n(Earlier in this conversation:\nUser: ${FIRST_QUESTION}`);
      expect(p).not.toContain(FIRST_ANSWER);
      expect(p).not.toContain('its key, and get looks');
    }
    // Answered in its own words: kept, and shown as the answer.
    expect(t.answer()).toMatchObject({ status: 'done', error: null });
    expect(t.answer().ranking?.best.map((b) => b.candidate.text)).toEqual([OWN_ANSWER]);
    expect(t.answer().tree?.candidates.some((c) => c.withheld)).toBe(false);
  });

  it('asks a follow-up the model rewrote as that standalone question alone, and still withholds a copy of the earlier answer', async () => {
    const REWRITE = 'How do I update a value in a HashMap?';
    const own = thread(OWN_ANSWER, REWRITE);
    await own.conversation.start();
    await own.conversation.ask(FIRST_QUESTION);
    const from = own.engine.calls.length;
    await own.conversation.ask(FOLLOW_UP);
    const prompts = own.answerPrompts(from);
    expect(prompts.length).toBeGreaterThan(0);
    for (const p of prompts) {
      expect(p).toContain(`Question: ${REWRITE}`);
      expect(p).not.toContain('Earlier in this conversation');
      expect(p).not.toContain(FIRST_QUESTION);
    }
    expect(own.answer().ranking?.best.map((b) => b.candidate.text)).toEqual([OWN_ANSWER]);

    const copy = thread(FIRST_ANSWER, REWRITE);
    await copy.conversation.start();
    await copy.conversation.ask(FIRST_QUESTION);
    await copy.conversation.ask(FOLLOW_UP);
    for (const c of copy.answer().tree!.candidates) expect(c.withheld?.reason).toBe('earlier-answer');
  });

  it('withholds a follow-up that repeats the earlier answer; with nothing left, the page says so and shows the evidence', async () => {
    const t = thread(FIRST_ANSWER);
    await t.conversation.start();
    await t.conversation.ask(FIRST_QUESTION);
    await t.conversation.ask(FOLLOW_UP);

    const answer = t.answer();
    expect(answer).toMatchObject({ status: 'done', error: null });
    const candidates = answer.tree!.candidates;
    expect(candidates.length).toBeGreaterThan(0);
    for (const c of candidates) expect(c.withheld?.reason).toBe('earlier-answer');
    expect(answer.ranking?.best).toEqual([]);
    expect(answer.ranking?.withheld).toEqual(['earlier-answer']);

    const view = noAnswerOf(answer.tree, answer.ranking)!;
    expect(view.message).toBe(
      'No answer: the model could not answer from these passages (it only repeated an earlier answer of this conversation).',
    );
    expect(view.passages.length).toBeGreaterThan(0);
    expect(view.passages.map((p) => p.passage.id)).toEqual(candidates.map((c) => c.passage!.id));
    expect(view.written).toHaveLength(candidates.length);
    for (const w of view.written)
      expect(w.detail).toBe(
        'The model repeated an earlier answer of this conversation instead of answering this question.',
      );

    const html = renderToStaticMarkup(<AnswerView answer={answer} onOpenPassage={() => undefined} />);
    expect(html).toContain('data-testid="withheld-answer"');
    expect(html).toContain('it only repeated an earlier answer of this conversation');
    for (const p of view.passages) expect(html).toContain(p.passage.text.slice(0, 40));
    expect(html).not.toContain('data-testid="segment"');

    // The turn is kept as one with no answer, and the thread goes on.
    const path = activePath(t.conversation.get().thread!);
    expect(path.map((x) => x.question)).toEqual([FIRST_QUESTION, FOLLOW_UP]);
    expect(path[1]!.answerText).toBe('');
    expect(path[1]!.status).not.toBe('failed');
  });
});
