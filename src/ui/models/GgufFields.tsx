// The CPU engine's model (GGUF): the catalogue's, or the user's own .gguf address; its warning, and
// deleting it from this browser after a confirmation.
import { useState } from 'react';
import type { EngineState, EngineStore } from '../../app/state/engine-state';
import { aboutGb } from '../../app/view/engine-view';
import { GGUF_CATALOGUE, type GgufChoice } from '../../generator/gguf-catalogue';

export function GgufSelect(props: { state: EngineState; loading: boolean; onGguf: (gguf: GgufChoice) => void }) {
  const { choice, ggufCached } = props.state;
  const ggufId = choice.gguf.kind === 'gguf' ? choice.gguf.id : 'url';
  return (
    <label>
      CPU model (GGUF){' '}
      <select
        value={ggufId}
        disabled={props.loading}
        onChange={(e) => e.target.value !== 'url' && props.onGguf({ kind: 'gguf', id: e.target.value })}
        data-testid="gguf"
      >
        {GGUF_CATALOGUE.map((m) => (
          <option key={m.id} value={m.id}>
            {m.label}
            {m.id === ggufId && ggufCached ? ' (downloaded)' : ''}
          </option>
        ))}
        {choice.gguf.kind === 'gguf-url' && (
          <option value="url">
            {choice.gguf.url}
            {ggufCached ? ' (downloaded)' : ''}
          </option>
        )}
      </select>
    </label>
  );
}

export function GgufUrlForm(props: {
  loading: boolean;
  /** Checks a typed .gguf address; returns why it cannot be used, or null once chosen. */
  onGgufUrl: (url: string, native: boolean) => string | null;
}) {
  const [typedUrl, setTypedUrl] = useState('');
  const [typedNative, setTypedNative] = useState(false);
  const [urlProblem, setUrlProblem] = useState<string | null>(null);
  return (
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
  );
}

export function GgufDelete(props: { state: EngineState; engine: EngineStore; loading: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const { gguf } = props.state.choice;
  const model = gguf.kind === 'gguf' ? GGUF_CATALOGUE.find((m) => m.id === gguf.id) : undefined;
  if (!confirming)
    return props.state.ggufCached ? (
      <button type="button" disabled={props.loading} onClick={() => setConfirming(true)} data-testid="gguf-delete">
        Delete the downloaded CPU model
      </button>
    ) : null;
  return (
    <fieldset className="inline-group" aria-label="Confirm delete">
      Delete {model?.label ?? 'this model'}
      {model ? ` (${aboutGb(model.sizeMB)})` : ''} from this browser?{' '}
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
  );
}
