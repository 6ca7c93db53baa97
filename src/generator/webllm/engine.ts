// The slice of web-llm's engine the generator uses. The worker client
// (WebWorkerMLCEngine) satisfies it in the app; test/doubles/scripted-engine.ts
// satisfies it in tests. Type-only import: no engine code reaches the main chunk.
import type { MLCEngineInterface } from '@mlc-ai/web-llm';

export type ChatEngine = Pick<MLCEngineInterface, 'chatCompletion' | 'completion' | 'interruptGenerate'>;

export interface SamplingSettings {
  /** 0 = greedy (the default, so the same question gives the same tree). */
  temperature: number;
  seed: number;
}

/**
 * web-llm reports log-probs after temperature, so temperature 0 would make
 * every slot one-hot. Greedy decoding is done with top_p at its floor instead:
 * only the most likely token can be sampled, while the reported probabilities
 * stay the model's own (temperature 1).
 */
export function samplingParams(s: SamplingSettings): { temperature: number; top_p: number; seed: number } {
  if (!(s.temperature >= 0) || !Number.isFinite(s.temperature))
    throw new RangeError(`Temperature must be 0 or more, got ${s.temperature}.`);
  if (!Number.isInteger(s.seed)) throw new RangeError(`The seed must be an integer, got ${s.seed}.`);
  return s.temperature === 0
    ? { temperature: 1, top_p: 1e-5, seed: s.seed }
    : { temperature: s.temperature, top_p: 1, seed: s.seed };
}

/**
 * Sent with every request whose probabilities are read. web-llm applies the
 * model's own repetition penalty (from its mlc-chat-config.json: 1.1 for
 * Qwen2.5-Instruct) to tokens already written in the same reply before it
 * takes the log-probs, so "2004" in an answer would lower p(" 4") at the
 * Utility slot and " no" in the text p(" no") at Support. The critique must be
 * the model's own judgement, whatever the answer happened to contain. (No
 * logit_bias is ever sent, for the same reason.)
 */
export const NEUTRAL_PENALTIES = { repetition_penalty: 1, frequency_penalty: 0, presence_penalty: 0 } as const;
