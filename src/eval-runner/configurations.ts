import type { DecodeSettings } from '../core/types';

export type ConfigId = 'no-retrieval' | 'rag' | 'self-rag' | 'self-crag';

export interface EvalConfig {
  id: ConfigId;
  label: string;
  mode: DecodeSettings['mode'];
  corrective: boolean;
}

/** The four systems compared in the papers' tables, run through the same decode. */
export const CONFIGS: readonly EvalConfig[] = [
  { id: 'no-retrieval', label: 'No retrieval', mode: 'never', corrective: false },
  { id: 'rag', label: 'Always retrieve (RAG)', mode: 'always', corrective: false },
  { id: 'self-rag', label: 'Self-RAG', mode: 'adaptive', corrective: false },
  { id: 'self-crag', label: 'Self-CRAG', mode: 'adaptive', corrective: true },
];

export function configById(id: ConfigId): EvalConfig {
  const c = CONFIGS.find((x) => x.id === id);
  if (!c) throw new Error(`unknown configuration "${id}"`);
  return c;
}
