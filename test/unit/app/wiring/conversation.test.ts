import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { createController } from '../../../../src/app/wiring/controller';
import { defaultSettings } from '../../../../src/app/persist/settings';
import { createConversation, type CompleteFn } from '../../../../src/app/wiring/conversation';
import { ThreadSaveError, ThreadStore } from '../../../../src/app/persist/thread-store';
import { activePath } from '../../../../src/core/conversation';
import { decode } from '../../../../src/core/decode';
import { rerank } from '../../../../src/core/rerank';
import type { Generator, Retriever } from '../../../../src/core/ports';
import { syntheticGenerator, syntheticRetriever } from '../../../doubles/synthetic-answer';

let n = 0;
const stores: ThreadStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

function setup(
  opts: { complete?: CompleteFn | null; evidenceOnly?: boolean; db?: string; generator?: Generator } = {},
) {
  const settings = defaultSettings();
  settings.decode = { ...settings.decode, mode: 'always', passagesPerStep: 3, beamWidth: 2, maxDepth: 3 };
  const queries: string[] = [];
  const seenQuestions: string[] = [];
  const base = syntheticRetriever();
  const retriever: Retriever = { retrieve: (q, k, s) => (queries.push(q), base.retrieve(q, k, s)) };
  const gen = opts.generator ?? syntheticGenerator({ seed: 3 });
  const spy: Generator = {
    decideRetrieval: (r) => gen.decideRetrieval(r),
    generateSegments: (rs) => (seenQuestions.push(rs[0]?.question ?? ''), gen.generateSegments(rs)),
  };
  const controller = createController({
    ports: { generator: async () => spy, retriever: async () => retriever, critic: async () => undefined },
    decode,
    rerank,
    settings,
    evidenceOnly: opts.evidenceOnly ? { reason: 'test' } : null,
  });
  const completions: string[] = [];
  const db = opts.db ?? `conv-${++n}`;
  const store = ThreadStore.open(db).then((s) => (stores.push(s), s));
  let id = 0;
  const conversation = createConversation({
    controller,
    store,
    complete: async () =>
      opts.complete === null
        ? null
        : async (req) => {
            completions.push(req.prompt);
            return (opts.complete ?? (async () => ({ text: 'How long does it take bees to make honey?' })))(req);
          },
    model: () => ({ id: 'tiny', contextWindow: 4096 }),
    newId: () => `id${++id}-${++n}`,
    saveEveryMs: 1,
  });
  return { controller, conversation, queries, completions, seenQuestions, store, db };
}

describe('conversation wiring', () => {
  it('without a thread store: one warning, unless the storage notice already says conversations are not kept', async () => {
    const make = (notKeptSaid?: () => Promise<boolean>) =>
      createConversation({
        controller: setup().controller,
        store: Promise.reject(new DOMException('The user denied permission to access the database.', 'UnknownError')),
        model: () => ({ id: 'tiny', contextWindow: 4096 }),
        ...(notKeptSaid ? { notKeptSaid } : {}),
      });
    // A top-level page whose IndexedDB fails: no storage notice there, so the thread warning is the one that says it.
    const alone = make(async () => false);
    expect(await alone.start()).toBe(false);
    expect(alone.get().notice?.text).toMatch(/Threads cannot be kept in this browser/);
    // A frame in mode memory: the storage notice says it; the conversation still works for the visit.
    const framed = make(async () => true);
    expect(await framed.start()).toBe(false);
    expect(framed.get().notice).toBeNull();
    await framed.ask('How do bees make honey?');
    expect(framed.get().thread?.turns).toBeDefined();
  });

  it("keeps threads in another IndexedDB when given one (the app site's, under Storage Access)", async () => {
    const { IDBFactory: FakeFactory } = await import('fake-indexeddb');
    const other = new FakeFactory();
    const name = `conv-other-${++n}`;
    const s = await ThreadStore.open(name, other);
    stores.push(s);
    const { controller } = setup();
    const conversation = createConversation({
      controller,
      store: Promise.resolve(s),
      model: () => ({ id: 'tiny', contextWindow: 4096 }),
      saveEveryMs: 1,
    });
    await conversation.start();
    await conversation.ask('How do bees make honey?');
    await new Promise((r) => setTimeout(r, 20));
    // In the given factory, not the page's own.
    const reopened = await ThreadStore.open(name, other);
    stores.push(reopened);
    expect((await reopened.list()).length).toBe(1);
    const own = await ThreadStore.open(name);
    stores.push(own);
    expect(await own.list()).toEqual([]);
  });

  it('a first question makes no rewrite call; a follow-up is rewritten, searched and answered as rewritten', async () => {
    const { conversation, queries, completions, seenQuestions } = setup();
    await conversation.start();
    await conversation.ask('How do bees make honey?');
    expect(completions).toEqual([]);
    queries.length = 0;
    seenQuestions.length = 0;
    await conversation.ask('How long does that take them?');
    expect(completions).toHaveLength(1);
    expect(completions[0]).toContain('User: How do bees make honey?');
    expect(queries[0]).toMatch(/^How long does it take bees to make honey\?/);
    // The standalone rewrite is asked alone (core/conversation/in-thread.ts): no earlier question to answer instead.
    expect(seenQuestions[0]).toBe('How long does it take bees to make honey?');
    const t = conversation.get().thread!;
    const path = activePath(t);
    expect(path.map((x) => x.question)).toEqual(['How do bees make honey?', 'How long does that take them?']);
    expect(path[1]).toMatchObject({
      rewrite: 'How long does it take bees to make honey?',
      status: 'done',
      model: 'tiny',
    });
    expect(path[1]!.answer!.candidates.length).toBeGreaterThan(0);
    expect(path[1]!.answerText.length).toBeGreaterThan(0);
  });

  it('an unusable rewrite, or no generator to write one, searches with the earlier questions joined', async () => {
    const a = setup({ complete: async () => ({ text: 'Standalone question:' }) });
    await a.conversation.start();
    await a.conversation.ask('How do bees make honey?');
    await a.conversation.ask('How long does that take them?');
    expect(a.queries.at(-1)).toMatch(/^How long does that take them\? How do bees make honey\?/);
    expect(a.conversation.get().notice?.text).toMatch(/rewrite was not used/);

    const b = setup({ complete: null });
    await b.conversation.start();
    await b.conversation.ask('How do bees make honey?');
    await b.conversation.ask('How long does that take them?');
    expect(b.completions).toEqual([]);
    expect(b.queries.at(-1)).toMatch(/How do bees make honey\?/);
  });

  it('a new subject in the same thread is searched as itself: no rewrite call, no earlier question in its search, no "searched" chip', async () => {
    const { conversation, queries, completions } = setup();
    await conversation.start();
    await conversation.ask('How do bees make honey?');
    queries.length = 0;
    await conversation.ask('What makes the sea have tides twice a day?');
    expect(completions).toEqual([]);
    expect(queries).toEqual(['What makes the sea have tides twice a day?']);
    const last = activePath(conversation.get().thread!).at(-1)!;
    expect(last).toMatchObject({ rewrite: null, searchQuery: 'What makes the sea have tides twice a day?' });
  });

  it('an unsure question is searched both as typed and with its subject, the two lists fused', async () => {
    const { conversation, queries } = setup({ evidenceOnly: true });
    await conversation.start();
    await conversation.ask('How do bees make honey?');
    queries.length = 0;
    // Continues the conversation ("and") yet names a subject of its own: both readings are searched.
    await conversation.ask('And how do wasps build their nests?');
    expect(new Set(queries)).toEqual(
      new Set(['And how do wasps build their nests?', 'And how do wasps build their nests? How do bees make honey?']),
    );
    const last = activePath(conversation.get().thread!).at(-1)!;
    expect(last.passages!.length).toBeGreaterThan(0);
  });

  it('evidence-only mode searches with the joined questions and calls no generator', async () => {
    const { conversation, queries, completions } = setup({ evidenceOnly: true });
    await conversation.start();
    await conversation.ask('How do bees make honey?');
    await conversation.ask('How long does that take them?');
    expect(completions).toEqual([]);
    expect(queries.at(-1)).toBe('How long does that take them? How do bees make honey?');
    const last = activePath(conversation.get().thread!).at(-1)!;
    expect(last.passages!.length).toBeGreaterThan(0);
    expect(last.model).toBeNull();
  });

  it('edit and regenerate add versions; stepping shows each, re-ranked from its own tree', async () => {
    const { conversation, controller } = setup();
    await conversation.start();
    await conversation.ask('How do bees make honey?');
    const first = conversation.get().thread!.roots[0]!;
    await conversation.edit(first, 'How do bees make wax?');
    await conversation.regenerate(conversation.get().thread!.roots[1]!);
    const t = conversation.get().thread!;
    expect(t.roots).toHaveLength(3);
    expect(t.roots.map((id) => t.turns[id]!.question)).toEqual([
      'How do bees make honey?',
      'How do bees make wax?',
      'How do bees make wax?',
    ]);
    conversation.step(t.roots[2]!, -1);
    conversation.step(t.roots[1]!, -1);
    expect(controller.getState().answer.question).toBe('How do bees make honey?');
    expect(controller.getState().answer.ranking!.best.length).toBeGreaterThan(0);
    // Moving a weight re-ranks the turn being viewed.
    controller.change({ rank: { weights: { rel: 0, sup: 0, use: 3, seq: 0 }, hardConstraints: false } });
    expect(controller.getState().answer.question).toBe('How do bees make honey?');
  });

  it('refuses a question while an answer is running, and an empty one, with a message', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const base = syntheticGenerator({ seed: 2 });
    const slow: Generator = {
      decideRetrieval: (r) => base.decideRetrieval(r),
      generateSegments: async (r) => (await gate, base.generateSegments(r)),
    };
    const { conversation } = setup({ generator: slow });
    await conversation.start();
    const running = conversation.ask('How do bees make honey?');
    await new Promise((r) => setTimeout(r, 5));
    await conversation.ask('Another question');
    expect(conversation.get().notice?.text).toMatch(/still being written/);
    release();
    await running;
    expect(Object.keys(conversation.get().thread!.turns)).toHaveLength(1);
    await conversation.ask('   ');
    expect(conversation.get().notice?.text).toMatch(/Type a question/);
  });

  it('keeps the thread across a reload (a new page on the same database) and imports its export as an equal tree', async () => {
    const a = setup();
    await a.conversation.start();
    await a.conversation.ask('How do bees make honey?');
    await a.conversation.ask('How long does that take them?');
    const json = (await a.conversation.exportJson())!;
    const b = setup({ db: a.db });
    await b.conversation.start();
    expect(activePath(b.conversation.get().thread!).map((t) => t.question)).toEqual([
      'How do bees make honey?',
      'How long does that take them?',
    ]);
    await b.conversation.importJson(json);
    expect(b.conversation.get().threads).toHaveLength(2);
    expect(b.conversation.get().thread!.turns).toEqual(JSON.parse(json).thread.turns);
    await expect(b.conversation.importJson('{"nope":1}')).rejects.toThrow(/not a thread/);
    expect(b.conversation.get().threads).toHaveLength(2);
    expect(await b.conversation.exportMarkdown()).toContain('## 2. How long does that take them?');
  });

  it('a reload with the history entry opens the thread that was open, at its viewed turn, and says the linked question is answered', async () => {
    const a = setup();
    await a.conversation.start();
    await a.conversation.ask('How do bees make honey?');
    await a.conversation.ask('How long does that take them?');
    const older = a.conversation.get().thread!;
    const first = activePath(older)[0]!.id;
    a.conversation.newThread();
    await a.conversation.ask('Why does the sea have tides?');
    // The newest thread ends with the address's question: without the entry, it would be opened.
    const b = setup({ db: a.db });
    const entry = { thread: older.id, viewed: first };
    expect(await b.conversation.start({ linkedQuestion: 'Why does the sea have tides?', entry })).toBe(true);
    expect(b.conversation.get().thread?.id).toBe(older.id);
    expect(b.conversation.get().viewed).toBe(first);
    // A thread no longer kept: nothing opened, and still nothing to ask.
    const c = setup({ db: a.db });
    expect(await c.conversation.start({ linkedQuestion: 'x', entry: { thread: 'gone', viewed: null } })).toBe(true);
    expect(c.conversation.get().thread).toBeNull();
    expect(c.conversation.get().threads).toHaveLength(2);
  });

  it('storage full: the turn stays on screen and the page says it could not be kept', async () => {
    const { conversation, store } = setup();
    const s = await store;
    s.put = async () => {
      throw new ThreadSaveError('This turn could not be kept: the storage for this site is full.', true);
    };
    await conversation.start();
    await conversation.ask('How do bees make honey?');
    expect(conversation.get().notice?.text).toMatch(/could not be kept/);
    expect(activePath(conversation.get().thread!)[0]!.status).toBe('done');
  });

  it('keeps RAGAS figures with their turn', async () => {
    const { conversation } = setup();
    await conversation.start();
    await conversation.ask('How do bees make honey?');
    const id = conversation.get().thread!.roots[0]!;
    conversation.setFigures(id, { faithfulness: 0.5, answerRelevance: null });
    expect(conversation.get().thread!.turns[id]!.figures).toEqual({ faithfulness: 0.5, answerRelevance: null });
  });

  it('a thread deleted in another tab stays on screen with a message, and asking again keeps it as a new thread', async () => {
    const a = setup();
    await a.conversation.start();
    await a.conversation.ask('How do bees make honey?');
    const b = setup({ db: a.db });
    await b.conversation.start();
    const id = a.conversation.get().thread!.id;
    await b.conversation.remove(id);
    for (let i = 0; i < 100 && !a.conversation.get().notice; i++) await new Promise((r) => setTimeout(r, 10));
    expect(a.conversation.get().notice?.text).toMatch(/deleted/);
    expect(a.conversation.get().thread!.roots).toHaveLength(1);
    await a.conversation.ask('How long does that take them?');
    const again = a.conversation.get().thread!;
    expect(again.id).not.toBe(id);
    expect(activePath(again)).toHaveLength(2);
    expect(a.conversation.get().threads.map((t) => t.id)).toContain(again.id);
  });

  it("only the run that belongs to a turn writes into it: a weight moved during a follow-up's rewrite leaves the new turn running, and it ends with its own answer", async () => {
    let rewriting!: () => void;
    const rewriteAsked = new Promise<void>((r) => (rewriting = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { controller, conversation } = setup({
      complete: async () => {
        rewriting();
        await gate;
        return { text: 'How long does it take bees to make honey?' };
      },
    });
    await conversation.start();
    await conversation.ask('How do bees make honey?');
    const first = conversation.get().viewed!;
    const asking = conversation.ask('How long does that take them?');
    await rewriteAsked;
    const followUp = conversation.get().running!;
    expect(followUp).not.toBe(first);
    // The page still shows the first answer: a new weight re-ranks it (a new answer object, finished).
    const before = controller.getState().answer;
    controller.change({ rank: { weights: { rel: 0, sup: 0, use: 3, seq: 0 }, hardConstraints: false } });
    expect(controller.getState().answer).not.toBe(before);
    expect(controller.getState().answer).toMatchObject({ question: 'How do bees make honey?', status: 'done' });
    // Not the follow-up's run: the follow-up is still being written and holds nothing of the first answer.
    expect(conversation.get().running).toBe(followUp);
    expect(conversation.get().thread!.turns[followUp]).toMatchObject({ answer: null, answerText: '' });
    await conversation.ask('Another question');
    expect(conversation.get().notice?.text).toMatch(/still being written/);
    release();
    await asking;
    const kept = conversation.get().thread!.turns[followUp]!;
    expect(conversation.get().running).toBeNull();
    expect(kept.status).toBe('done');
    expect(kept.answer!.question).toBe('How long does it take bees to make honey?');
    expect(kept.answerText).toBe(activePath(conversation.get().thread!).at(-1)!.answerText);
    expect(conversation.get().thread!.turns[first]!.answer!.question).toBe('How do bees make honey?');
  });

  it("a turn's run replaced by another run (the controller asked directly) ends the turn as stopped, without the other answer", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const base = syntheticGenerator({ seed: 2 });
    const held: Generator = {
      decideRetrieval: (r) => base.decideRetrieval(r),
      generateSegments: async (r) => (await gate, base.generateSegments(r)),
    };
    const { controller, conversation } = setup({ generator: held });
    await conversation.start();
    const asking = conversation.ask('How do bees make honey?');
    await new Promise((r) => setTimeout(r, 5));
    const turn = conversation.get().running!;
    const other = controller.ask('Why does the sea have tides?');
    release();
    await Promise.all([asking, other]);
    expect(controller.getState().answer).toMatchObject({ question: 'Why does the sea have tides?', status: 'done' });
    expect(conversation.get().running).toBeNull();
    const kept = conversation.get().thread!.turns[turn]!;
    expect(kept.status).toBe('stopped');
    expect(kept.answer?.question ?? null).not.toBe('Why does the sea have tides?');
    expect(kept.settings.used).toBeUndefined();
  });

  it("a host page's question stops what is written and is asked in a thread of its own, its answer kept in its turn", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const base = syntheticGenerator({ seed: 2 });
    let held = true;
    const slow: Generator = {
      decideRetrieval: (r) => base.decideRetrieval(r),
      generateSegments: async (r) => (held && (await gate), base.generateSegments(r)),
    };
    const { controller, conversation, store } = setup({ generator: slow });
    await conversation.start();
    const asking = conversation.ask('How do bees make honey?');
    // Held in its generator: the turn runs (the ask flow loads on the first question).
    while (controller.getState().answer.status !== 'running') await new Promise((r) => setTimeout(r, 2));
    const visitors = conversation.get().thread!.id;
    const first = conversation.get().running!;
    held = false;
    const apart = conversation.askApart('Why does the sea have tides?');
    release();
    const [turn] = await Promise.all([apart, asking]);
    const s = conversation.get();
    // The visitor's question ended as stopped in its own thread; the host's is a new thread's only turn.
    expect(s.thread!.id).not.toBe(visitors);
    expect(Object.keys(s.thread!.turns)).toEqual([turn]);
    expect(s.viewed).toBe(turn);
    expect(s.running).toBeNull();
    const kept = s.thread!.turns[turn!]!;
    expect(kept).toMatchObject({ question: 'Why does the sea have tides?', status: 'done', parentId: null });
    expect(kept.answer!.question).toBe('Why does the sea have tides?');
    expect(controller.getState().answer).toMatchObject({ question: 'Why does the sea have tides?', status: 'done' });
    expect((await (await store).get(visitors))!.turns[first]!.status).toBe('stopped');
    expect(await conversation.askApart('   ')).toBeNull();
  });

  it('re-runs the answer shown after a settings change as its Regenerate does: same search, same earlier turns, kept as a version', async () => {
    const { controller, conversation, queries, seenQuestions } = setup();
    await conversation.ask('How do bees make honey?');
    await conversation.ask('How long does that take them?');
    const followUp = conversation.get().viewed!;
    controller.change({ decode: { ...controller.getState().settings.decode, beamWidth: 3 } });
    expect(controller.pendingDecodeChanges()).toEqual(['beamWidth']);
    const asked = () => ({ queries: queries.splice(0), questions: [...new Set(seenQuestions.splice(0))] });
    asked();
    await conversation.rerun();
    const rerun = asked();
    const rerunTurn = conversation.get().viewed!;
    await conversation.regenerate(rerunTurn);
    const regenerated = asked();
    expect(rerun).toEqual(regenerated);
    expect(rerun.queries[0]).toBe('How long does it take bees to make honey?');
    expect(rerun.questions.every((q) => q === 'How long does it take bees to make honey?')).toBe(true);
    // Kept in the thread: the follow-up has three versions, the re-run's written with today's settings.
    const thread = conversation.get().thread!;
    const parent = thread.turns[followUp]!.parentId!;
    expect(thread.turns[parent]!.children).toEqual([followUp, rerunTurn, conversation.get().viewed]);
    expect(thread.turns[rerunTurn]!.status).toBe('done');
    expect((thread.turns[rerunTurn]!.settings.decode as { beamWidth: number }).beamWidth).toBe(3);
    // The turn holds the re-run's own answer: searched as the follow-up, written with today's beam width.
    expect(thread.turns[rerunTurn]!.answer).toMatchObject({
      question: 'How long does it take bees to make honey?',
      settings: { beamWidth: 3 },
    });
    expect(thread.turns[followUp]!.answer!.settings.beamWidth).toBe(2);
    expect(controller.pendingDecodeChanges()).toEqual([]);
  });
});
