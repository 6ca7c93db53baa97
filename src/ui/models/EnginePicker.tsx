// Which engine writes answers: Auto (web-llm where WebGPU works, llama.cpp on the CPU elsewhere),
// either one by hand, and the CPU engine's GGUF model with its "downloaded" mark and delete.
// Loading progress and cancel are the status panel's.
import { useEffect } from 'react';
import type { EngineChoice, EngineName } from '../../app/persist/engine-choice';
import type { EngineStore } from '../../app/state/engine-state';
import { whoWrites, writesOnCpu } from '../../app/view/engine-view';
import { GGUF_CATALOGUE } from '../../generator/gguf-catalogue';
import { useStore } from '../hooks';
import { GgufDelete, GgufSelect, GgufUrlForm } from './GgufFields';

const ENGINES: { value: EngineName; label: string }[] = [
  { value: 'auto', label: 'Auto: WebGPU where it works, else the CPU' },
  { value: 'webllm', label: 'WebLLM on WebGPU' },
  { value: 'wllama', label: 'llama.cpp on the CPU (slower, no WebGPU needed)' },
];

export function EnginePicker(props: {
  engine: EngineStore;
  loading: boolean;
  /** Saves and switches to a choice. */
  onSelect: (choice: EngineChoice) => void;
  /** Checks a typed .gguf address; returns why it cannot be used, or null once chosen. */
  onGgufUrl: (url: string, native: boolean) => string | null;
  /** WebGPU is missing here, so Auto will write on the CPU (before the engine is picked). */
  noWebGpu?: boolean;
  /** The page answers with passages only: no engine writes now. */
  evidenceOnly?: boolean;
}) {
  const state = useStore(props.engine, props.engine.get);
  useEffect(() => {
    void props.engine.refresh();
  }, [props.engine]);
  const { choice } = state;
  const { gguf } = choice;
  const model = gguf.kind === 'gguf' ? GGUF_CATALOGUE.find((m) => m.id === gguf.id) : undefined;
  const writer = whoWrites(state.inUse, props.evidenceOnly ?? false);
  return (
    <div className="engine-picker" data-testid="engine-picker">
      <label>
        Engine{' '}
        <select
          value={choice.engine}
          disabled={props.loading}
          onChange={(e) => props.onSelect({ ...choice, engine: e.target.value as EngineName })}
          data-testid="engine"
        >
          {ENGINES.map((e) => (
            <option key={e.value} value={e.value}>
              {e.label}
            </option>
          ))}
        </select>
      </label>
      {writer && (
        <p className="hint" data-testid="who-writes">
          {writer}
        </p>
      )}
      {writesOnCpu(choice.engine, state.inUse, props.noWebGpu ?? false) && (
        <>
          <GgufSelect state={state} loading={props.loading} onGguf={(gguf) => props.onSelect({ ...choice, gguf })} />
          <GgufUrlForm loading={props.loading} onGgufUrl={props.onGgufUrl} />
          {model?.warning && (
            <p className="notice warn" data-testid="gguf-warning">
              {model.warning}
            </p>
          )}
          <GgufDelete state={state} engine={props.engine} loading={props.loading} />
        </>
      )}
    </div>
  );
}
