// Each resource's state changes only through its reducer's named actions, and its status line is
// one selector over that state: driven here alone, without a worker, a store or a timer.
import { describe, expect, it } from 'vitest';
import { defaultSettings } from '../../../../src/app/persist/settings';
import { generatorReducer, initialGenerator } from '../../../../src/app/state/generator';
import { modelLine } from '../../../../src/app/state/worker-status';
import { initialLibrary, libraryLine, libraryReducer, type LibraryAction } from '../../../../src/app/state/library';
import { initialPage, pageReducer, pendingDecodeChanges } from '../../../../src/app/state/page';
import {
  conversationReducer,
  initialConversation,
  turnOfRun,
  type ConversationState,
} from '../../../../src/app/state/conversation';
import { emptyThread, type Turn } from '../../../../src/core/conversation/thread';
import { rerank } from '../../../../src/core/rerank';

describe("the page (the controller's state)", () => {
  const reduce = pageReducer({ rerank, now: () => 0 });

  it('changes settings one way, through the sanitiser: a refused value keeps the current one, unchanged parts keep their objects', () => {
    const start = initialPage();
    const warm = reduce(start, { type: 'settingsChanged', patch: { temperature: 0.5 } });
    expect(warm.settings.temperature).toBe(0.5);
    expect(warm.saved.temperature).toBe(0.5);
    expect(warm.settings.rank).toBe(start.settings.rank);
    const refused = reduce(warm, { type: 'settingsChanged', patch: { temperature: 99, theme: 'dark' } });
    expect(refused.settings.temperature).toBe(0.5);
    expect(refused.settings.theme).toBe('dark');
  });

  it("shows a visit's engine and a host's theme without saving them; the user's own change replaces them", () => {
    const wllama = { ...defaultSettings().engine, engine: 'wllama' as const };
    let s = initialPage(defaultSettings(), { engine: wllama });
    s = reduce(s, { type: 'hostThemeShown', theme: 'dark' });
    expect(s.settings).toMatchObject({ engine: wllama, theme: 'dark' });
    expect(s.saved).toMatchObject({ engine: defaultSettings().engine, theme: 'system' });
    s = reduce(s, { type: 'settingsChanged', patch: { engine: { ...wllama, engine: 'webllm' } } });
    expect(s.settings.engine.engine).toBe('webllm');
    expect(s.saved.engine.engine).toBe('webllm');
    expect(s.settings.theme).toBe('dark');
  });

  it('ignores a finished run that is no longer the current one, and offers no re-run before an answer', () => {
    let s = reduce(initialPage(), { type: 'runStarted', shown: 'q', query: 'q' });
    const first = s.answer.runId;
    s = reduce(s, { type: 'runStarted', shown: 'q2', query: 'q2' });
    const after = reduce(s, { type: 'runStopped', runId: first });
    expect(after.answer.status).toBe('running');
    expect(pendingDecodeChanges(initialPage())).toEqual([]);
  });
});

describe('the conversation', () => {
  const turn = (id: string): Omit<Turn, 'children'> => ({
    id,
    parentId: null,
    question: `question ${id}`,
    rewrite: null,
    searchQuery: `question ${id}`,
    answer: null,
    answerText: '',
    settings: {},
    model: null,
    status: 'stopped',
    createdAt: 0,
  });

  it('writes into the running turn only from the run claimed for it: before the claim and from any other run, nothing', () => {
    let s: ConversationState = conversationReducer(initialConversation, {
      type: 'turnAsked',
      into: emptyThread('t', 0),
      turn: turn('a'),
      at: 0,
      rewriting: true,
    });
    // Asked, its follow-up being rewritten: no run is the turn's yet.
    expect(s).toMatchObject({ running: 'a', run: null });
    expect(turnOfRun(s, { runId: 4 })).toBeNull();
    expect(conversationReducer(s, { type: 'turnFinished', runId: 4, patch: { status: 'done' }, at: 1 })).toBe(s);
    // A claim for another turn is ignored; the turn's own claim names its run.
    expect(conversationReducer(s, { type: 'runClaimed', id: 'b', runId: 5 })).toBe(s);
    s = conversationReducer(s, { type: 'runClaimed', id: 'a', runId: 5 });
    expect(turnOfRun(s, { runId: 5 })).toBe('a');
    expect(turnOfRun(s, { runId: 4 })).toBeNull();
    expect(conversationReducer(s, { type: 'turnFinished', runId: 4, patch: { status: 'done' }, at: 1 })).toBe(s);
    s = conversationReducer(s, {
      type: 'turnFinished',
      runId: 5,
      patch: { status: 'done', answerText: 'kept' },
      at: 1,
    });
    expect(s).toMatchObject({ running: null, run: null });
    expect(s.thread!.turns.a).toMatchObject({ status: 'done', answerText: 'kept' });
    expect(turnOfRun(s, { runId: 5 })).toBeNull();
  });
});

describe('the library connection', () => {
  const run = (actions: LibraryAction[]) => actions.reduce(libraryReducer, initialLibrary());

  it("says which index serves, what waits for the embedding model and the site's corpus, in one line", () => {
    const s = run([
      { type: 'opening' },
      { type: 'opened', index: 'Vectors: flat', warnings: [] },
      { type: 'listed', docs: [{ id: 'a', title: 'A', passages: 1, pending: true }] },
      { type: 'corpusFound', documents: 2, passages: 10 },
    ]);
    expect(libraryLine(s)).toMatchObject({ state: 'ready', device: 'cpu' });
    expect(libraryLine(s).reason).toBe(
      "Vectors: flat. 1 document is not embedded yet: found by their words only until the embedding model loads. Also searched: this site's corpus, 2 documents (10 passages), read in blocks as questions need them",
    );
    // While a batch runs, its documents' words go in before their vectors: they wait for those, not for a model.
    const adding = libraryReducer(s, { type: 'busy', busy: true });
    expect(libraryLine(adding).reason).toMatch(
      /1 document is not embedded yet: found by their words only until they are embedded\./,
    );
  });

  it('lists a document by its words while a batch embeds it, and takes it out again when it is withdrawn', () => {
    const job = { id: 'batch', label: 'Adding', loaded: 0, total: 10, unit: 'bytes' as const, startedAt: 0 };
    const listed = run([
      { type: 'listed', docs: [{ id: 'a', title: 'A', passages: 2 }] },
      { type: 'batchProgressed', job, recognisingSince: 0, added: { id: 'b', title: 'B', passages: 3, pending: true } },
    ]);
    expect(listed.view.docs.map((d) => [d.id, d.pending ?? false])).toEqual([
      ['a', false],
      ['b', true],
    ]);
    const gone = libraryReducer(listed, { type: 'batchProgressed', job, recognisingSince: 0, withdrawn: 'b' });
    expect(gone.view.docs.map((d) => d.id)).toEqual(['a']);
  });

  it('says why the library could not open, in the line and in the panel', () => {
    const s = run([{ type: 'opening' }, { type: 'openFailed', message: 'no IndexedDB' }]);
    expect(libraryLine(s)).toMatchObject({ state: 'error', error: 'The library could not open: no IndexedDB' });
    expect(s.view.messages.map((m) => m.text)).toEqual(['The library could not open: no IndexedDB']);
    expect(s.view.ready).toBe(true);
  });
});

describe('the generator service', () => {
  it("follows the handle's lifecycle: loading, ready with where it runs, a failure with its message", () => {
    const wanted = { model: { kind: 'catalogue' as const, id: 'm' }, engine: defaultSettings().engine, temperature: 0 };
    let s = initialGenerator(wanted);
    s = generatorReducer(s, { type: 'gpuChecked', gpu: { ok: true, reason: 'WebGPU adapter found.' } });
    s = generatorReducer(s, { type: 'engineResolved', inUse: 'webllm' });
    s = generatorReducer(s, { type: 'lifecycle', state: 'loading' });
    expect(modelLine(s).state).toBe('loading');
    s = generatorReducer(s, {
      type: 'lifecycle',
      state: 'ready',
      loaded: { runsOn: undefined, modelId: 'm', local: true },
    });
    expect(modelLine(s)).toMatchObject({
      state: 'ready',
      device: 'webgpu',
      reason: 'WebGPU adapter found.',
      models: ['m (local pack)'],
    });
    s = generatorReducer(s, { type: 'lifecycle', state: 'failed', error: { message: 'lost', suggestion: 'Reload.' } });
    expect(modelLine(s)).toMatchObject({ state: 'error', error: 'lost', suggestion: 'Reload.' });
  });

  it('keeps saying web-llm is unavailable here when a model is let go', () => {
    const wanted = { model: { kind: 'catalogue' as const, id: 'm' }, engine: defaultSettings().engine, temperature: 0 };
    let s = generatorReducer(initialGenerator(wanted), {
      type: 'announced',
      phase: 'unavailable',
      reason: 'No WebGPU.',
    });
    s = generatorReducer(s, { type: 'lifecycle', state: 'idle' });
    expect(modelLine(s)).toMatchObject({ state: 'unavailable', reason: 'No WebGPU.', models: [] });
  });
});
