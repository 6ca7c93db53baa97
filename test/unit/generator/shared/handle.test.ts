// The one generator handle, run against both engine drivers: what the app relies on
// whichever engine answers — load and progress, refusal before load, cancel, dispose
// with a call in flight, a crashed worker, cost kept across unloads, what it runs on,
// and the one short constrained completion written once in shared code.
import { describe, expect, it } from 'vitest';
import { workerCrashed, type GeneratorError } from '../../../../src/generator/errors';
import type { GeneratorHandle, LoadProgress } from '../../../../src/generator/handle';
import { formToGrammar, ONE_LINE } from '../../../../src/generator/form';
import { formToGbnf } from '../../../../src/generator/wllama/gbnf';
import type { ChatEngine } from '../../../../src/generator/webllm/engine';
import { createGenerator, type Connect } from '../../../../src/generator/webllm/create';
import { createWllamaGenerator } from '../../../../src/generator/wllama/create';
import type { WllamaConnection } from '../../../../src/generator/wllama/client';
import type { WllamaChatChunk, WllamaRequest } from '../../../../src/generator/wllama/protocol';
import { ScriptedEngine } from '../../../doubles/scripted-engine';

interface Sent {
  system?: string;
  user: string;
  grammar?: string;
}

interface RigOptions {
  /** The model's free-text reply. */
  reply?: string;
  /** Engine calls never answer (until the worker is stopped). */
  hang?: boolean;
  /** Loading never finishes. */
  stuckLoad?: boolean;
}

interface Rig {
  handle: GeneratorHandle;
  progress: LoadProgress[];
  states: string[];
  sent: Sent[];
  /** Times the engine's worker was stopped. */
  terminated(): number;
  /** The worker dies on its own (e.g. out of memory). */
  crash(): void;
  runsOn: { engine: string; device: string };
  /** The one-line grammar in the engine's own dialect. */
  oneLine: string;
}

const never = <T>() => new Promise<T>(() => {});

function webllmRig(o: RigOptions = {}): Rig {
  const sent: Sent[] = [];
  let terminated = 0;
  let crash!: (e: unknown) => void;
  const failed = new Promise<never>((_, reject) => (crash = reject));
  failed.catch(() => {});
  const connect: Connect = (model, appConfig, onReport) => {
    const scripted = new ScriptedEngine({ script: () => ({ text: o.reply ?? 'ok' }) });
    scripted.setAppConfig(appConfig);
    scripted.setInitProgressCallback(onReport);
    const engine: ChatEngine = {
      chatCompletion: ((req: Parameters<ChatEngine['chatCompletion']>[0]) => {
        const role = (r: string) => req.messages.find((m) => m.role === r)?.content as string | undefined;
        const grammar = req.response_format?.type === 'grammar' ? req.response_format.grammar : undefined;
        sent.push({
          user: role('user') ?? '',
          ...(role('system') !== undefined ? { system: role('system')! } : {}),
          ...(grammar ? { grammar } : {}),
        });
        return o.hang ? never() : scripted.chatCompletion(req);
      }) as ChatEngine['chatCompletion'],
      completion: ((req: Parameters<ChatEngine['completion']>[0]) =>
        o.hang ? never() : scripted.completion(req)) as ChatEngine['completion'],
      interruptGenerate: () => scripted.interruptGenerate(),
    };
    const ready = (async () => {
      if (o.stuckLoad) await never();
      await scripted.reload(model.modelId);
      return { engine, terminate: () => void terminated++, failed };
    })();
    return { ready, terminate: () => void terminated++ };
  };
  const progress: LoadProgress[] = [];
  const states: string[] = [];
  const handle = createGenerator(
    { baseURI: 'https://site.example/app/', source: 'hub' },
    {
      connect,
      detectGpu: async () => ({ shaderF16: false }),
      onProgress: (p) => progress.push(p),
      onState: (s) => states.push(s),
    },
  );
  return {
    handle,
    progress,
    states,
    sent,
    terminated: () => terminated,
    crash: () => crash(workerCrashed('web-llm', 'script error')),
    runsOn: { engine: 'webllm', device: 'webgpu' },
    oneLine: formToGrammar(ONE_LINE),
  };
}

function wllamaRig(o: RigOptions = {}): Rig {
  const sent: Sent[] = [];
  let terminated = 0;
  let crash!: (e: unknown) => void;
  const failed = new Promise<never>((_, reject) => (crash = reject));
  failed.catch(() => {});
  const conn: WllamaConnection = {
    load: async (_source, _opts, onProgress) => {
      if (o.stuckLoad) await never();
      onProgress?.(50, 100);
      return { nVocab: 100, nCtx: 4096, threads: 2, multiThread: true, chatTemplate: null };
    },
    cancelDownload: () => {},
    chatStream: async (_id: number, req: WllamaRequest, onChunk: (c: WllamaChatChunk) => void | Promise<void>) => {
      const messages = req.messages as { role: string; content: string }[];
      const role = (r: string) => messages.find((m) => m.role === r)?.content;
      sent.push({
        user: role('user') ?? '',
        ...(role('system') !== undefined ? { system: role('system')! } : {}),
        ...(typeof req.grammar === 'string' ? { grammar: req.grammar } : {}),
      });
      if (o.hang) return never();
      const text = o.reply ?? 'ok';
      const tokens = text.split(/(?=\s)/);
      for (const t of tokens)
        await onChunk({ choices: [{ delta: { content: t }, finish_reason: null, logprobs: null }] });
      const timings = { cache_n: 0, prompt_n: 11, predicted_n: tokens.length, predicted_ms: 1, prompt_ms: 1 };
      await onChunk({
        choices: [{ delta: {}, finish_reason: 'stop', logprobs: null }],
        usage: { prompt_tokens: 11, completion_tokens: tokens.length },
        timings,
      });
    },
    complete: () => never(),
    abort: () => {},
    tokenIds: async (t) => t.map(() => null),
    kept: async () => null,
    deleteCached: async () => {},
    terminate: () => void terminated++,
    failed,
  };
  const progress: LoadProgress[] = [];
  const states: string[] = [];
  const handle = createWllamaGenerator(
    { model: { kind: 'gguf-url', url: 'models/x.gguf', native: false }, baseURI: 'https://site.example/app/' },
    { connect: () => conn, onProgress: (p) => progress.push(p), onState: (s) => states.push(s) },
  );
  return {
    handle,
    progress,
    states,
    sent,
    terminated: () => terminated,
    crash: () => crash(workerCrashed('llama.cpp', 'script error')),
    runsOn: { engine: 'wllama', device: 'cpu' },
    oneLine: formToGbnf(ONE_LINE),
  };
}

/** Lets every pending promise callback and timer of this turn run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
}

/** Starts a call and reports how it stands: still pending, resolved, or rejected with a kind. */
function watch(p: Promise<unknown>): () => string {
  let out = 'pending';
  p.then(
    () => (out = 'resolved'),
    (e: GeneratorError) => (out = `rejected:${e.kind}`),
  );
  return () => out;
}

describe.each([
  ['web-llm', webllmRig],
  ['llama.cpp', wllamaRig],
] as const)('the generator handle over %s', (_name, rig) => {
  it('loads with progress to a ready state and says what it runs on', async () => {
    const r = rig();
    expect(r.handle.state).toBe('idle');
    expect(r.handle.runsOn()).toBeUndefined();
    await r.handle.load();
    expect(r.handle.state).toBe('ready');
    expect(r.states).toEqual(['loading', 'ready']);
    expect(r.progress[0]!.stage).toBe('checking');
    expect(r.progress.at(-1)).toMatchObject({ stage: 'ready', fraction: 1 });
    expect(r.handle.runsOn()).toMatchObject(r.runsOn);
    expect(r.handle.runsOn()!.threads).toBeGreaterThanOrEqual(1);
  });

  it('refuses a call before the model is loaded, with a typed error', async () => {
    const r = rig();
    await expect(r.handle.complete({ prompt: 'x', maxTokens: 8 })).rejects.toMatchObject({
      kind: 'bad-config',
      message: /not loaded/,
    });
    expect(r.sent).toEqual([]);
  });

  it('completes one constrained line: a one-line grammar is sent, the first line comes back, the cost is counted', async () => {
    const r = rig({ reply: '  lyon population 2020  ' });
    await r.handle.load();
    const out = await r.handle.complete({
      system: 'Rewrite the follow-up as a search query.',
      prompt: 'And in 2020?',
      maxTokens: 24,
      oneLine: true,
    });
    expect(out.text).toBe('lyon population 2020');
    expect(out.promptTokens).toBeGreaterThan(0);
    expect(out.completionTokens).toBeGreaterThan(0);
    expect(r.sent).toEqual([
      { system: 'Rewrite the follow-up as a search query.', user: 'And in 2020?', grammar: r.oneLine },
    ]);
    expect(r.handle.cost()).toEqual({ calls: 1, promptTokens: out.promptTokens, decodedTokens: out.completionTokens });
  });

  it('completes free text with no grammar and no system message when none is asked for', async () => {
    const r = rig({ reply: 'two words' });
    await r.handle.load();
    const out = await r.handle.complete({ prompt: 'Say two words.', maxTokens: 8 });
    expect(out.text).toBe('two words');
    expect(r.sent).toEqual([{ user: 'Say two words.' }]);
  });

  it('settles a call in flight with a "cancelled" error when disposed, and stops the worker', async () => {
    const r = rig({ hang: true });
    await r.handle.load();
    const status = watch(r.handle.complete({ prompt: 'x', maxTokens: 8 }));
    const writing = watch(r.handle.write('y'));
    await settle();
    expect(status()).toBe('pending');
    await r.handle.dispose();
    await settle();
    expect(status()).toBe('rejected:cancelled');
    expect(writing()).toBe('rejected:cancelled');
    expect(r.handle.state).toBe('idle');
    expect(r.terminated()).toBeGreaterThanOrEqual(1);
  });

  it('fails clearly when the worker crashes mid-call, and unloads', async () => {
    const r = rig({ hang: true });
    await r.handle.load();
    const status = watch(r.handle.complete({ prompt: 'x', maxTokens: 8 }));
    await settle();
    r.crash();
    await settle();
    expect(status()).toBe('rejected:crashed');
    expect(r.handle.state).toBe('failed');
    expect(r.states.at(-1)).toBe('failed');
    expect(r.terminated()).toBeGreaterThanOrEqual(1);
    await expect(r.handle.complete({ prompt: 'x', maxTokens: 8 })).rejects.toMatchObject({ kind: 'bad-config' });
  });

  it('cancels a load: back to idle with a "cancelled" error, and the worker is stopped', async () => {
    const r = rig({ stuckLoad: true });
    const loading = watch(r.handle.load());
    await settle();
    expect(r.handle.state).toBe('loading');
    r.handle.cancelLoad();
    await settle();
    expect(loading()).toBe('rejected:cancelled');
    expect(r.handle.state).toBe('idle');
    expect(r.terminated()).toBeGreaterThanOrEqual(1);
  });

  it('keeps the cost of earlier calls across an unload, until reset', async () => {
    const r = rig({ reply: 'fine' });
    await r.handle.load();
    await r.handle.write('a');
    await r.handle.dispose();
    expect(r.handle.cost().calls).toBe(1);
    await r.handle.load();
    await r.handle.write('b');
    expect(r.handle.cost().calls).toBe(2);
    r.handle.resetCost();
    expect(r.handle.cost()).toEqual({ calls: 0, promptTokens: 0, decodedTokens: 0 });
  });

  it('rejects a completion budget that is not a whole number of tokens', async () => {
    const r = rig();
    await r.handle.load();
    await expect(r.handle.complete({ prompt: 'x', maxTokens: 0 })).rejects.toThrow(/maxTokens/);
    expect(r.sent).toEqual([]);
  });
});
