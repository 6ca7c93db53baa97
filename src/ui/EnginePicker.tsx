// Which engine writes answers: Auto (web-llm where WebGPU works, llama.cpp on the
// CPU elsewhere), either one by hand, and the CPU engine's GGUF model with its
// "downloaded" mark and delete. Loading progress and cancel are the status panel's.
import { useEffect, useState } from 'react';
import type { EngineName, EngineStore } from '../app/engine-choice';
import { GGUF_CATALOGUE, type GgufChoice } from '../generator/gguf-catalogue';
import { useStore } from './hooks';

const ENGINES: { value: EngineName; label: string }[] = [
  { value: 'auto', label: 'Auto: WebGPU where it works, else the CPU' },
  { value: 'webllm', label: 'WebLLM on WebGPU' },
  { value: 'wllama', label: 'llama.cpp on the CPU (slower, no WebGPU needed)' },
];

export function EnginePicker(props: { engine: EngineStore; loading: boolean }) {
  const state = useStore(props.engine, props.engine.get);
  const [confirming, setConfirming] = useState(false);
  useEffect(() => {
    void props.engine.refresh();
  }, [props.engine]);
  const { choice } = state;
  const ggufId = choice.gguf.kind === 'gguf' ? choice.gguf.id : 'url';
  const model = choice.gguf.kind === 'gguf' ? GGUF_CATALOGUE.find((m) => m.id === ggufId) : undefined;
  const setGguf = (id: string) => {
    const gguf: GgufChoice = { kind: 'gguf', id };
    props.engine.select({ ...choice, gguf });
  };
  return (
    <div className="engine-picker" data-testid="engine-picker">
      <label>
        Engine{' '}
        <select value={choice.engine} disabled={props.loading} onChange={(e) => props.engine.select({ ...choice, engine: e.target.value as EngineName })} data-testid="engine">
          {ENGINES.map((e) => (
            <option key={e.value} value={e.value}>
              {e.label}
            </option>
          ))}
        </select>
      </label>
      {state.inUse && <p className="hint">Answers are written by {state.inUse === 'wllama' ? 'llama.cpp on the CPU' : 'WebLLM on WebGPU'}.</p>}
      {choice.engine !== 'webllm' && (
        <>
          <label>
            CPU model (GGUF){' '}
            <select value={ggufId} disabled={props.loading} onChange={(e) => setGguf(e.target.value)} data-testid="gguf">
              {GGUF_CATALOGUE.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.label}
                  {m.id === ggufId && state.ggufCached ? ' (downloaded)' : ''}
                </option>
              ))}
              {choice.gguf.kind === 'gguf-url' && (
                <option value="url">
                  {choice.gguf.url}
                  {state.ggufCached ? ' (downloaded)' : ''}
                </option>
              )}
            </select>
          </label>
          {model?.warning && (
            <p className="notice warn" data-testid="gguf-warning">
              {model.warning}
            </p>
          )}
          {state.ggufCached && !confirming && (
            <button type="button" disabled={props.loading} onClick={() => setConfirming(true)} data-testid="gguf-delete">
              Delete the downloaded CPU model
            </button>
          )}
          {confirming && (
            <span role="group" aria-label="Confirm delete">
              Delete {model?.label ?? 'this model'}{model ? ` (about ${Math.round(model.sizeMB / 100) / 10} GB)` : ''} from this browser?{' '}
              <button
                type="button"
                onClick={() => {
                  setConfirming(false);
                  void props.engine.remove();
                }}
                data-testid="gguf-delete-confirm"
              >
                Delete
              </button>{' '}
              <button type="button" onClick={() => setConfirming(false)}>
                Keep
              </button>
            </span>
          )}
        </>
      )}
    </div>
  );
}
