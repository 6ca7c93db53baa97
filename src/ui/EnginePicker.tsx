// Which engine writes answers: Auto (web-llm where WebGPU works, llama.cpp on the
// CPU elsewhere), either one by hand, and the CPU engine's GGUF model with its
// "downloaded" mark and delete. Loading progress and cancel are the status panel's.
import { useEffect, useState } from 'react';
import type { EngineChoice, EngineName, EngineStore } from '../app/state/engine-choice';
import { GGUF_CATALOGUE, type GgufChoice } from '../generator/gguf-catalogue';
import { useStore } from './hooks';

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
}) {
  const state = useStore(props.engine, props.engine.get);
  const [confirming, setConfirming] = useState(false);
  const [typedUrl, setTypedUrl] = useState('');
  const [typedNative, setTypedNative] = useState(false);
  const [urlProblem, setUrlProblem] = useState<string | null>(null);
  useEffect(() => {
    void props.engine.refresh();
  }, [props.engine]);
  const { choice } = state;
  const ggufId = choice.gguf.kind === 'gguf' ? choice.gguf.id : 'url';
  const model = choice.gguf.kind === 'gguf' ? GGUF_CATALOGUE.find((m) => m.id === ggufId) : undefined;
  const setGguf = (id: string) => {
    const gguf: GgufChoice = { kind: 'gguf', id };
    props.onSelect({ ...choice, gguf });
  };
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
      {state.inUse && (
        <p className="hint">
          Answers are written by {state.inUse === 'wllama' ? 'llama.cpp on the CPU' : 'WebLLM on WebGPU'}.
        </p>
      )}
      {writesOnCpu(choice.engine, state.inUse, props.noWebGpu ?? false) && (
        <>
          <label>
            CPU model (GGUF){' '}
            <select
              value={ggufId}
              disabled={props.loading}
              onChange={(e) => e.target.value !== 'url' && setGguf(e.target.value)}
              data-testid="gguf"
            >
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
          <form
            className="gguf-url"
            onSubmit={(e) => {
              e.preventDefault();
              const problem = props.onGgufUrl(typedUrl, typedNative);
              setUrlProblem(problem);
              if (!problem) setTypedUrl('');
            }}
          >
            <label>
              Or your own .gguf address{' '}
              <input
                type="text"
                value={typedUrl}
                disabled={props.loading}
                onChange={(e) => setTypedUrl(e.target.value)}
                placeholder="https://…/model.gguf"
                data-testid="gguf-url"
              />
            </label>{' '}
            <label>
              <input
                type="checkbox"
                checked={typedNative}
                disabled={props.loading}
                onChange={(e) => setTypedNative(e.target.checked)}
              />{' '}
              Self-RAG model (native)
            </label>{' '}
            <button type="submit" disabled={props.loading || !typedUrl.trim()} data-testid="gguf-url-use">
              Use
            </button>
            {urlProblem && (
              <p className="notice warn" role="alert" data-testid="gguf-url-problem">
                {urlProblem}
              </p>
            )}
          </form>
          {model?.warning && (
            <p className="notice warn" data-testid="gguf-warning">
              {model.warning}
            </p>
          )}
          {state.ggufCached && !confirming && (
            <button
              type="button"
              disabled={props.loading}
              onClick={() => setConfirming(true)}
              data-testid="gguf-delete"
            >
              Delete the downloaded CPU model
            </button>
          )}
          {confirming && (
            <fieldset className="inline-group" aria-label="Confirm delete">
              Delete {model?.label ?? 'this model'}
              {model ? ` (about ${Math.round(model.sizeMB / 100) / 10} GB)` : ''} from this browser?{' '}
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
            </fieldset>
          )}
        </>
      )}
    </div>
  );
}

/** The CPU model matters only where llama.cpp writes: chosen by hand, or what Auto picked (or will pick without WebGPU). */
function writesOnCpu(engine: EngineName, inUse: 'webllm' | 'wllama' | undefined, noWebGpu: boolean): boolean {
  if (engine !== 'auto') return engine === 'wllama';
  return inUse ? inUse === 'wllama' : noWebGpu;
}
