// Wires the model picker and the status panel's ways forward after a failed
// load to the controller (persisted settings) and the services (the generator).
import { useEffect } from 'react';
import type { AppServices } from '../../app/wiring/services-contract';
import type { Controller } from '../../app/wiring/controller';
import {
  checkCustomModel,
  choiceKey,
  CUSTOM_MODEL_KEY,
  modelChoice,
  smallestModelId,
} from '../../app/persist/custom-model';
import type { AppSettings } from '../../app/persist/settings';
import { ggufUrlProblem, type EngineChoice } from '../../app/persist/engine-choice';
import type { ModelChoice } from '../../generator/catalogue';
import { useStore } from '../hooks';
import { GGUF_CATALOGUE } from '../../generator/gguf-catalogue';
// The pickers load just after the first paint (lazy-panels.tsx).
import { EnginePicker, ModelPicker } from '../lazy-panels';

export function useModelControls(
  controller: Controller,
  services: AppServices,
  settings: AppSettings,
  generatorLoading: boolean,
  noWebGpu = false,
  evidenceOnly = false,
) {
  const cache = useStore(services.models, services.models.get);
  const custom: ModelChoice | null = settings.customModel ? { kind: 'custom', ...settings.customModel } : null;
  const customKey = custom ? choiceKey(custom) : '';

  useEffect(() => {
    void services.models.refresh(custom ? [custom] : []);
    // Only a different custom model needs a new check; the choice object is rebuilt every render.
  }, [services, customKey]);

  const choose = (id: string) => {
    const choice = modelChoice(id, settings.customModel);
    if (!choice) return;
    controller.change({ model: id });
  };
  const smallest = smallestModelId();
  const engine = useStore(services.engine ?? NO_ENGINE, services.engine?.get ?? NO_ENGINE.get);
  const smallestGguf = [...GGUF_CATALOGUE].sort((a, b) => a.sizeMB - b.sizeMB)[0]!.id;
  const onCpu = engine?.inUse === 'wllama';
  // Who writes: llama.cpp when chosen, or when 'auto' resolved to it (or must, without WebGPU).
  const llamaWrites = engine?.choice.engine === 'wllama' || (engine?.choice.engine === 'auto' && (onCpu || noWebGpu));
  const selectEngine = (engine: EngineChoice) => controller.change({ engine });
  const ggufIsSmallest = engine?.choice.gguf.kind === 'gguf' && engine.choice.gguf.id === smallestGguf;

  return {
    picker: (
      <>
        {services.engine && (
          <EnginePicker
            engine={services.engine}
            loading={generatorLoading}
            noWebGpu={noWebGpu}
            evidenceOnly={evidenceOnly}
            onSelect={selectEngine}
            onGgufUrl={(url, native) => {
              const problem = ggufUrlProblem(url, location.href);
              if (problem) return problem;
              if (engine) selectEngine({ ...engine.choice, gguf: { kind: 'gguf-url', url: url.trim(), native } });
              return null;
            }}
          />
        )}
        <ModelPicker
          webllm={!llamaWrites}
          model={settings.model}
          customModel={settings.customModel}
          temperature={settings.temperature}
          cache={cache}
          loading={generatorLoading}
          onModel={choose}
          onCustomModel={(input) => {
            const checked = checkCustomModel(input, location.href);
            if ('problem' in checked) return checked.problem;
            controller.change({ customModel: checked.model, model: CUSTOM_MODEL_KEY });
            void services.models.refresh([{ kind: 'custom', ...checked.model }]);
            return null;
          }}
          onTemperature={(temperature) => controller.change({ temperature })}
          onDelete={(choice) => void services.models.remove(choice)}
        />
      </>
    ),
    // The smaller model of the engine that failed: a GGUF one on the CPU, a WebLLM one on WebGPU.
    onSmallerModel: onCpu
      ? ggufIsSmallest || !engine
        ? undefined
        : () => selectEngine({ ...engine.choice, gguf: { kind: 'gguf', id: smallestGguf } })
      : settings.model === smallest
        ? undefined
        : () => choose(smallest),
    onEvidenceOnly: (reason: string) =>
      controller.enterEvidenceOnly(`The language model could not be loaded: ${reason}`),
  };
}

const NO_ENGINE = { get: () => undefined, subscribe: () => () => {} };
