import { describe, expect, it } from 'vitest';
import { serialiseOrt } from '../../../../workers/evaluator/ort-serial';
import { serialQueue } from '../../../../workers/evaluator/serial';

type Ort = Parameters<typeof serialiseOrt>[0];

const later = () => {
  let resolve!: () => void;
  const p = new Promise<void>((r) => (resolve = r));
  return { p, resolve };
};

/** A stand-in for onnxruntime-web's InferenceSession that records overlapping calls. */
function fakeOrt() {
  const log: string[] = [];
  let active = 0;
  let overlaps = 0;
  const gates: Record<string, ReturnType<typeof later>> = {};
  const busy = async (name: string) => {
    if (active++ > 0) overlaps++;
    log.push(`start ${name}`);
    gates[name] = later();
    await gates[name].p;
    log.push(`end ${name}`);
    active--;
  };
  class InferenceSession {
    constructor(readonly name: string) {}
    static async create(name: string) {
      await busy(`create ${name}`);
      return new InferenceSession(name);
    }
    async run() {
      await busy(`run ${this.name}`);
      return { out: this.name };
    }
    async release() {
      await busy(`release ${this.name}`);
    }
  }
  const ort = { env: { wasm: {} }, InferenceSession } as unknown as Ort;
  return { ort, log, gates, overlaps: () => overlaps, InferenceSession };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('serial queue', () => {
  it('runs work one at a time, in order, and a failure does not block what follows', async () => {
    const q = serialQueue();
    const order: string[] = [];
    const a = later();
    const first = q(async () => {
      order.push('a');
      await a.p;
      throw new Error('a failed');
    });
    const second = q(async () => order.push('b'));
    await tick();
    expect(order).toEqual(['a']);
    a.resolve();
    await expect(first).rejects.toThrow('a failed');
    await second;
    expect(order).toEqual(['a', 'b']);
  });
});

describe('ORT session calls in the evaluator worker', () => {
  it('never create a session while another one runs (the WebGPU failure in the app)', async () => {
    const f = fakeOrt();
    expect(serialiseOrt(f.ort, f.ort.env)).toBe(true);
    const Session = f.InferenceSession;
    const reranker = await (async () => {
      const p = Session.create('reranker');
      await tick();
      f.gates['create reranker']!.resolve();
      return p;
    })();
    const running = reranker.run();
    const creating = Session.create('nli');
    await tick();
    expect(f.log.at(-1)).toBe('start run reranker');
    f.gates['run reranker']!.resolve();
    await expect(running).resolves.toEqual({ out: 'reranker' });
    await tick();
    expect(f.log.at(-1)).toBe('start create nli');
    f.gates['create nli']!.resolve();
    const nli = await creating;
    const released = nli.release();
    await tick();
    f.gates['release nli']!.resolve();
    await released;
    expect(f.overlaps()).toBe(0);
  });

  it('patches once even when called again, and refuses an ORT instance transformers.js does not use', async () => {
    const f = fakeOrt();
    expect(serialiseOrt(f.ort, { wasm: {} })).toBe(false);
    expect(serialiseOrt(f.ort, undefined)).toBe(false);
    expect(serialiseOrt(f.ort, f.ort.env)).toBe(true);
    const create = f.InferenceSession.create;
    expect(serialiseOrt(f.ort, f.ort.env)).toBe(true);
    expect(f.InferenceSession.create).toBe(create);
  });

  it('overlaps calls without the patch (so the test above can fail)', async () => {
    const f = fakeOrt();
    const s = f.InferenceSession.create('a');
    await tick();
    f.gates['create a']!.resolve();
    const a = await s;
    const running = a.run();
    const creating = f.InferenceSession.create('b');
    await tick();
    expect(f.overlaps()).toBe(1);
    f.gates['run a']!.resolve();
    f.gates['create b']!.resolve();
    await Promise.all([running, creating]);
  });
});
