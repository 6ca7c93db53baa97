// An engine driver for the generator's lifecycle (generator/shared/lifecycle.ts) without an
// engine: `open` waits until the test lets it finish or fail, and every call is recorded, so a
// service built on real handles can be driven step by step in Node.
import type { EngineDriver, Session } from '../../src/generator/shared/lifecycle';
import { createHandle } from '../../src/generator/shared/lifecycle';
import type { GeneratorHandle, GeneratorHooks, RunsOn } from '../../src/generator/handle';
import type { SelfRagGenerator } from '../../src/generator/shared/self-rag';
import { GeneratorError } from '../../src/generator/errors';

export interface FakeEngine {
  /** What the service asked for: the handle's name and the temperature it was made with. */
  readonly name: string;
  readonly handle: GeneratorHandle;
  temperatures: number[];
  opens: number;
  disposed: boolean;
  deleted: number;
  /** Finishes the pending load. */
  finishLoad(): void;
  /** Fails the pending load with this error. */
  failLoad(e: Error): void;
  /** Makes the next port call fail as a lost GPU device does. */
  loseDevice(): void;
}

export function fakeEngine(
  name: string,
  hooks: GeneratorHooks,
  temperature: number,
  runsOn: RunsOn = { engine: 'webllm', label: 'WebGPU', device: 'webgpu', threads: 1 },
): FakeEngine {
  let settle: { resolve(): void; reject(e: Error): void } | null = null;
  let lost = false;
  const engine: FakeEngine = {
    name,
    handle: undefined as unknown as GeneratorHandle,
    temperatures: [temperature],
    opens: 0,
    disposed: false,
    deleted: 0,
    finishLoad: () => settle?.resolve(),
    failLoad: (e) => settle?.reject(e),
    loseDevice: () => void (lost = true),
  };
  const generator = {
    setTemperature: (t: number) => void engine.temperatures.push(t),
    interrupt: () => undefined,
    cost: () => ({ promptTokens: 0, decodedTokens: 0, calls: 0 }),
    resetCost: () => undefined,
    write: async () => {
      if (lost) throw new GeneratorError('device-lost', 'The GPU device was lost.', 'Reload the page.');
      return 'ok';
    },
  } as unknown as SelfRagGenerator;
  const driver: EngineDriver = {
    modelId: name,
    native: false,
    local: false,
    async open({ signal }) {
      engine.opens++;
      await new Promise<void>((resolve, reject) => {
        settle = { resolve, reject };
        signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      });
      const session: Session = {
        generator,
        runsOn,
        terminate: () => void (engine.disposed = true),
      };
      return session;
    },
    checkTemperature: (t) => {
      if (t < 0) throw new Error('Temperature must be 0 or more.');
    },
    hasModelInCache: async () => engine.opens > 0,
    async deleteModel(_choice, unload) {
      engine.deleted++;
      await unload();
    },
  };
  (engine as { handle: GeneratorHandle }).handle = createHandle(driver, hooks, temperature);
  return engine;
}
