// A model the user compiled with MLC LLM: its name, weights and library addresses, and whether it
// is a native Self-RAG model. Folded until opened.
import { useState, type ChangeEvent } from 'react';
import type { CustomModelInput } from '../../app/persist/custom-model';
import type { CustomModel } from '../../generator/catalogue';

function AddressField(props: {
  label: string;
  value: string;
  onChange: (e: ChangeEvent<HTMLInputElement>) => void;
  testId: string;
  placeholder: string;
}) {
  return (
    <label>
      {props.label}{' '}
      <input value={props.value} onChange={props.onChange} data-testid={props.testId} placeholder={props.placeholder} />
    </label>
  );
}

export function CustomModelForm(props: {
  customModel: CustomModel | null;
  loading: boolean;
  /** Returns why the model cannot be used, or null once saved and selected. */
  onCustomModel: (input: CustomModelInput) => string | null;
}) {
  const [form, setForm] = useState<CustomModelInput>(() => ({
    name: props.customModel?.name ?? '',
    weightsUrl: props.customModel?.weightsUrl ?? '',
    libUrl: props.customModel?.libUrl ?? '',
    native: props.customModel?.native ?? false,
  }));
  const [problem, setProblem] = useState<string | null>(null);
  const field = (key: 'name' | 'weightsUrl' | 'libUrl') => (e: ChangeEvent<HTMLInputElement>) =>
    setForm({ ...form, [key]: e.target.value });
  return (
    <details data-testid="custom-model">
      <summary>Your own model (compiled with MLC LLM)</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setProblem(props.onCustomModel(form));
        }}
      >
        <p className="muted">
          A model you compiled yourself, e.g. selfrag_llama2_7b. Addresses must start with https:// or be files on this
          site.
        </p>
        <AddressField
          label="Model name"
          value={form.name}
          onChange={field('name')}
          testId="custom-name"
          placeholder="selfrag_llama2_7b-q4f16_1-MLC"
        />
        <AddressField
          label="Weights URL (folder with mlc-chat-config.json)"
          value={form.weightsUrl}
          onChange={field('weightsUrl')}
          testId="custom-weights"
          placeholder="https://…/selfrag_llama2_7b-q4f16_1-MLC/"
        />
        <AddressField
          label="Model library URL (.wasm)"
          value={form.libUrl}
          onChange={field('libUrl')}
          testId="custom-lib"
          placeholder="https://…/selfrag_llama2_7b-q4f16_1-webgpu.wasm"
        />
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
  );
}
