import { describe, expect, it } from 'vitest';
import { abortable } from '../../../src/core/abortable';

describe('abortable calls (evaluator models, library worker parses)', () => {
  it('does not start work for an already aborted signal', async () => {
    let started = false;
    const ac = new AbortController();
    ac.abort();
    await expect(abortable(async () => ((started = true), 1), ac.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect(started).toBe(false);
  });

  it('rejects as soon as the signal aborts, without waiting for the worker', async () => {
    const ac = new AbortController();
    const never = new Promise<number>(() => {});
    const call = abortable(() => never, ac.signal);
    ac.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
  });

  it("keeps the caller's words when it aborts with an AbortError of its own", async () => {
    const ac = new AbortController();
    const call = abortable(() => new Promise<number>(() => {}), ac.signal);
    ac.abort(new DOMException('Stopped by the user', 'AbortError'));
    await expect(call).rejects.toThrow('Stopped by the user');
  });

  it('still rejects as an AbortError when the signal was aborted with some other reason', async () => {
    const ac = new AbortController();
    const call = abortable(() => new Promise<number>(() => {}), ac.signal);
    ac.abort(new Error('timed out'));
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('passes results and worker errors through unchanged', async () => {
    const ac = new AbortController();
    await expect(abortable(async () => [0.9], ac.signal)).resolves.toEqual([0.9]);
    await expect(abortable(() => Promise.reject(new Error('model "x" failed')), ac.signal)).rejects.toThrow(
      'model "x" failed',
    );
    await expect(abortable(async () => 'no signal')).resolves.toBe('no signal');
  });
});
