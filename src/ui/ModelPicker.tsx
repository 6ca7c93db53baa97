// The language model picker: catalogue and custom models with their
// "downloaded" marks, deleting a downloaded model (after a confirmation), the
// form for a model the user compiled, and the sampling temperature.
import { useState, type ChangeEvent } from 'react';
import { choiceKey, CUSTOM_MODEL_KEY, type CustomModelInput } from '../app/persist/custom-model';
import type { ModelCacheState } from '../app/state/model-downloads';
import { RANGES } from '../app/persist/settings';
import { CATALOGUE, type CustomModel, type ModelChoice } from '../generator/catalogue';
import { Slider } from './Slider';

interface Entry {
  key: string;
  choice: ModelChoice;
  label: string;
  /** About how much the browser stores, for the delete confirmation. */
  size: string | null;
}

const gb = (mb: number) => `about ${Math.round(mb / 100) / 10} GB`;

function entries(custom: CustomModel | null): Entry[] {
  const list: Entry[] = CATALOGUE.map((m) => ({
    key: m.id,
    choice: { kind: 'catalogue', id: m.id },
    label: m.label,
    size: gb(m.builds.f32.vramMB),
  }));
  if (custom) {
    const choice: ModelChoice = { kind: 'custom', ...custom };
    list.push({
      key: choiceKey(choice),
      choice,
      label: `${custom.name} (your own${custom.native ? ', native Self-RAG' : ''})`,
      size: null,
    });
  }
  return list;
}

export function ModelPicker(props: {
  model: string;
  customModel: CustomModel | null;
  temperature: number;
  cache: ModelCacheState;
  /** The generator is downloading or starting the selected model. */
  loading: boolean;
  onModel: (id: string) => void;
  /** Returns why the model cannot be used, or null once saved and selected. */
  onCustomModel: (input: CustomModelInput) => string | null;
  onTemperature: (t: number) => void;
  onDelete: (choice: ModelChoice) => void;
}) {
  const { cache } = props;
  const list = entries(props.customModel);
  const selectedKey = props.model === CUSTOM_MODEL_KEY ? list[list.length - 1]?.key : props.model;
  const downloaded = list.filter((e) => cache.marks[e.key]);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [form, setForm] = useState<CustomModelInput>(() => ({
    name: props.customModel?.name ?? '',
    weightsUrl: props.customModel?.weightsUrl ?? '',
    libUrl: props.customModel?.libUrl ?? '',
    native: props.customModel?.native ?? false,
  }));
  const [problem, setProblem] = useState<string | null>(null);
  const field = (key: 'name' | 'weightsUrl' | 'libUrl') => (e: ChangeEvent<HTMLInputElement>) =>
    setForm({ ...form, [key]: e.target.value });
  const mark = (e: Entry) => (cache.marks[e.key] ? ' · downloaded' : '');

  return (
    <div
      className="model-picker"
      data-testid="model-picker"
      data-checked={Object.keys(cache.marks).length > 0 && !cache.checking ? 'true' : 'false'}
    >
      <div className="select">
        <label htmlFor="model">Language model</label>
        <select
          id="model"
          value={props.model}
          disabled={props.loading}
          onChange={(e) => props.onModel(e.target.value)}
          data-testid="model"
        >
          {list.map((e) => (
            <option
              key={e.key}
              value={e.choice.kind === 'custom' ? CUSTOM_MODEL_KEY : e.key}
              data-downloaded={cache.marks[e.key] ? 'true' : 'false'}
            >
              {e.label}
              {e.size ? ` · ${e.size}` : ''}
              {mark(e)}
            </option>
          ))}
        </select>
        {cache.checking && <span className="muted">Checking downloads…</span>}
      </div>

      {downloaded.length > 0 && (
        <div data-testid="downloaded-models">
          <p className="muted">Downloaded in this browser (loads without the network):</p>
          <ul>
            {downloaded.map((e) => {
              const busy = props.loading && e.key === selectedKey;
              return (
                <li key={e.key} data-testid="downloaded-model" data-model={e.key}>
                  {e.label}{' '}
                  {confirming === e.key ? (
                    <fieldset className="inline-group" aria-label={`Confirm deleting ${e.label}`}>
                      Delete it from this browser? It downloads again{e.size ? ` (${e.size})` : ''} the next time it is
                      used.{' '}
                      <button
                        type="button"
                        data-testid="confirm-delete-model"
                        onClick={() => {
                          setConfirming(null);
                          props.onDelete(e.choice);
                        }}
                      >
                        Yes, delete
                      </button>{' '}
                      <button type="button" onClick={() => setConfirming(null)}>
                        Keep it
                      </button>
                    </fieldset>
                  ) : (
                    <button
                      type="button"
                      data-testid="delete-model"
                      aria-label={`Delete downloaded model ${e.label}`}
                      disabled={busy || cache.deleting !== null}
                      title={busy ? 'It is loading: cancel the download first.' : undefined}
                      onClick={() => setConfirming(e.key)}
                    >
                      {cache.deleting === e.key ? 'Deleting…' : 'Delete downloaded model'}
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      )}
      {cache.error && (
        <p className="error" role="alert" data-testid="model-cache-error">
          {cache.error}
        </p>
      )}

      <details data-testid="custom-model">
        <summary>Your own model (compiled with MLC LLM)</summary>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setProblem(props.onCustomModel(form));
          }}
        >
          <p className="muted">
            A model you compiled yourself, e.g. selfrag_llama2_7b. Addresses must start with https:// or be files on
            this site.
          </p>
          <label>
            Model name{' '}
            <input
              value={form.name}
              onChange={field('name')}
              data-testid="custom-name"
              placeholder="selfrag_llama2_7b-q4f16_1-MLC"
            />
          </label>
          <label>
            Weights URL (folder with mlc-chat-config.json){' '}
            <input
              value={form.weightsUrl}
              onChange={field('weightsUrl')}
              data-testid="custom-weights"
              placeholder="https://…/selfrag_llama2_7b-q4f16_1-MLC/"
            />
          </label>
          <label>
            Model library URL (.wasm){' '}
            <input
              value={form.libUrl}
              onChange={field('libUrl')}
              data-testid="custom-lib"
              placeholder="https://…/selfrag_llama2_7b-q4f16_1-webgpu.wasm"
            />
          </label>
          <label>
            <input
              type="checkbox"
              checked={form.native}
              onChange={(e) => setForm({ ...form, native: e.target.checked })}
              data-testid="custom-native"
            />{' '}
            Native Self-RAG model (its vocabulary has the reflection tokens)
          </label>
          <button type="submit" disabled={props.loading} data-testid="custom-save">
            Use this model
          </button>
          {problem && (
            <p className="error" role="alert" data-testid="custom-problem">
              {problem}
            </p>
          )}
        </form>
      </details>

      <Slider
        label="Temperature"
        value={props.temperature}
        range={RANGES.temperature}
        onChange={props.onTemperature}
        testId="temperature"
        hint="0 writes greedily with a fixed seed, so the same question gives the same tree. Above 0 the model samples: the same question may give a different tree each time."
      />
    </div>
  );
}
