// The language model picker: catalogue and custom models with their "downloaded" marks, deleting a
// downloaded model, the form for a model the user compiled, and the sampling temperature.
import { CUSTOM_MODEL_KEY, type CustomModelInput } from '../../app/persist/custom-model';
import type { ModelCacheState } from '../../app/state/model-downloads';
import { RANGES } from '../../app/persist/settings';
import { modelEntries, type ModelEntry } from '../../app/view/model-entries';
import type { CustomModel, ModelChoice } from '../../generator/catalogue';
import { Slider } from '../Slider';
import { CustomModelForm } from './CustomModelForm';
import { DownloadedModels } from './DownloadedModels';

function ModelSelect(props: {
  model: string;
  list: ModelEntry[];
  cache: ModelCacheState;
  loading: boolean;
  onModel: (id: string) => void;
}) {
  const { cache } = props;
  return (
    <div className="select">
      <label htmlFor="model">Language model</label>
      <select
        id="model"
        value={props.model}
        disabled={props.loading}
        onChange={(e) => props.onModel(e.target.value)}
        data-testid="model"
      >
        {props.list.map((e) => (
          <option
            key={e.key}
            value={e.choice.kind === 'custom' ? CUSTOM_MODEL_KEY : e.key}
            data-downloaded={cache.marks[e.key] ? 'true' : 'false'}
          >
            {e.label}
            {e.size ? ` · ${e.size}` : ''}
            {cache.marks[e.key] ? ' · downloaded' : ''}
          </option>
        ))}
      </select>
      {cache.checking && <span className="muted">Checking downloads…</span>}
    </div>
  );
}

export function ModelPicker(props: {
  /** WebLLM writes: its model list and custom model apply (llama.cpp's GGUF picker is the engine picker's). */
  webllm: boolean;
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
  const list = modelEntries(props.customModel);
  const selectedKey = props.model === CUSTOM_MODEL_KEY ? list[list.length - 1]?.key : props.model;
  return (
    <div
      className="model-picker"
      data-testid="model-picker"
      data-checked={Object.keys(cache.marks).length > 0 && !cache.checking ? 'true' : 'false'}
    >
      {props.webllm && (
        <ModelSelect model={props.model} list={list} cache={cache} loading={props.loading} onModel={props.onModel} />
      )}
      <DownloadedModels
        downloaded={list.filter((e) => cache.marks[e.key])}
        cache={cache}
        loadingKey={props.loading ? (selectedKey ?? null) : null}
        onDelete={props.onDelete}
      />
      {cache.error && (
        <p className="error" role="alert" data-testid="model-cache-error">
          {cache.error}
        </p>
      )}
      {props.webllm && (
        <CustomModelForm customModel={props.customModel} loading={props.loading} onCustomModel={props.onCustomModel} />
      )}
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
