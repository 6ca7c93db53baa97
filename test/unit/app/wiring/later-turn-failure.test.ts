// Issue 47, item 1: in a thread, "And how do I update one?" got its candidates withheld (the model
// repeated the first answer), then "No segment was finished." and the raw red error "Cannot read
// properties of undefined (reading 'aborted')"; a third question and Regenerate failed the same way.
//
// The cause: main.tsx called the decode inside Vite's dynamic-import wrapper
// (`import('./core/decode').then((m) => m.decode(...))`), whose catch hands any rejection to the
// page's `vite:preloadError` listener, and that listener took every error for a missing chunk
// (preventDefault), so a decode that failed resolved to undefined and `finishRun` read
// `undefined.aborted`. Here the page's own loader (lazyDecode) and listener (onPreloadError) run
// under a restatement of Vite's wrapper (test/doubles/vite-preload.ts), with the real controller,
// conversation and decode, a scripted generator, a fake retriever and a fake critic.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { onPreloadError } from '../../../../src/app/browser/service-worker';
import { defaultSettings } from '../../../../src/app/persist/settings';
import { createController, type DecodeFn } from '../../../../src/app/wiring/controller';
import { createConversation } from '../../../../src/app/wiring/conversation';
import { lazyDecode } from '../../../../src/app/wiring/lazy-decode';
import { ThreadStore } from '../../../../src/app/persist/thread-store';
import { activePath } from '../../../../src/core/conversation';
import { rerank } from '../../../../src/core/rerank';
import type { SegmentRequest } from '../../../../src/core/ports';
import { FakeCritic } from '../../../doubles/fake-critic';
import { FakeRetriever, passage } from '../../../doubles/fake-retriever';
import { ScriptedGenerator, type ScriptedSegment } from '../../../doubles/scripted-generator';
import { vitePreload } from '../../../doubles/vite-preload';

const FIRST_ANSWER = 'Use a HashMap: it stores each value under its key.';
const EVALUATOR_FAILED = 'The evaluator failed: its worker stopped.';
const USE = [0, 0, 0.1, 0.3, 0.6] as [number, number, number, number, number];
const loadDecode = () => import('../../../../src/core/decode');

let db = 0;

/** A thread whose follow-up's candidate the evaluator fails on while `failing`. */
function thread(decodeFor: (page: EventTarget) => DecodeFn, listen: (page: EventTarget, stale: () => void) => void) {
  const page = new EventTarget();
  let stale = false;
  listen(page, () => (stale = true));
  const generator = new ScriptedGenerator({
    retrieve: () => ({ retrieval: 0.9, noRetrieval: 0.1 }),
    segments: (req: SegmentRequest): ScriptedSegment => {
      // The follow-up (searched with the first question joined): the model writes an answer,
      // whose support the critic is then asked. (In the report it repeated the first answer; a
      // withheld candidate's support is no longer asked, so here the failure comes from an answer's.)
      if (req.question.startsWith('And how do I update one?'))
        return { text: 'Insert the value again under the same key.', done: true, use: USE, logprob: -1 };
      const text = req.question.startsWith('What does mpsc')
        ? 'mpsc stands for multiple producer, single consumer.'
        : FIRST_ANSWER;
      return { text, done: true, use: USE, logprob: -1 };
    },
  });
  // Then the evaluator fails on what was written: the decode rejects (any failure would do).
  let failing = false;
  const critic = new FakeCritic();
  const support = critic.support.bind(critic);
  critic.support = async (pairs) => {
    if (failing) throw new Error(EVALUATOR_FAILED);
    return support(pairs);
  };
  const retriever = new FakeRetriever([
    passage('maps#1', 'A HashMap stores values that you look up by a key.'),
    passage('maps#2', 'To update a value in a HashMap, insert it again or use the entry API.'),
    passage('sync#1', 'mpsc stands for multiple producer, single consumer: a channel.'),
  ]);
  const controller = createController({
    ports: { generator: async () => generator, retriever: async () => retriever, critic: async () => critic },
    decode: decodeFor(page),
    rerank,
    settings: defaultSettings(),
  });
  const conversation = createConversation({
    controller,
    store: ThreadStore.open(`later-turn-${++db}`),
    complete: async () => null,
    model: () => ({ id: 'scripted', contextWindow: 4096 }),
    saveEveryMs: 1,
  });
  const answer = () => controller.getState().answer;
  return { conversation, answer, stale: () => stale, failing: (on: boolean) => (failing = on) };
}

describe('a later turn whose decode fails (issue 47)', () => {
  it("shows the decode's own error, marks no new version, and the next question and Regenerate answer", async () => {
    const t = thread(
      (page) => lazyDecode(() => vitePreload(page, loadDecode)),
      (page, stale) => page.addEventListener('vite:preloadError', (e) => onPreloadError(e, stale)),
    );
    await t.conversation.start();
    await t.conversation.ask('How do I store values that I look up by a key?');
    expect(t.answer().ranking?.best[0]?.candidate.text).toBe(FIRST_ANSWER);

    t.failing(true);
    await t.conversation.ask('And how do I update one?');
    t.failing(false);
    expect(t.answer().error).toBe(EVALUATOR_FAILED);
    expect(t.answer().error).not.toMatch(/reading 'aborted'/);
    expect(t.stale()).toBe(false);

    await t.conversation.ask('What does mpsc stand for?');
    expect(t.answer()).toMatchObject({ status: 'done', error: null });
    expect(t.answer().ranking?.best[0]?.candidate.text).toMatch(/multiple producer/);

    const last = activePath(t.conversation.get().thread!).at(-1)!;
    await t.conversation.regenerate(last.id);
    expect(t.answer()).toMatchObject({ status: 'done', error: null });
    expect(t.answer().ranking?.best[0]?.candidate.text).toMatch(/multiple producer/);
  });

  it('the page still takes over a chunk that failed to load: marked stale, no error thrown at the caller', async () => {
    const page = new EventTarget();
    let stale = false;
    page.addEventListener('vite:preloadError', (e) => onPreloadError(e, () => (stale = true)));
    const gone = new TypeError('Failed to fetch dynamically imported module: https://example.org/assets/decode-x.js');
    await expect(vitePreload(page, () => Promise.reject(gone))).resolves.toBeUndefined();
    expect(stale).toBe(true);
  });

  it('reproduces the crash as it was: the decode called inside the wrapper, every error taken for a missing chunk', async () => {
    const t = thread(
      (page) =>
        (...args) =>
          vitePreload(page, () => loadDecode().then((m) => m.decode(...args))),
      (page, stale) =>
        page.addEventListener('vite:preloadError', (e) => {
          e.preventDefault();
          stale();
        }),
    );
    await t.conversation.start();
    await t.conversation.ask('How do I store values that I look up by a key?');
    t.failing(true);
    await t.conversation.ask('And how do I update one?');
    expect(t.answer().error).toBe("Cannot read properties of undefined (reading 'aborted')");
    expect(t.stale()).toBe(true);
  });
});
