// The language model picker's rows: every catalogue model, and the user's own compiled one, each
// with its key (for the "downloaded" marks) and about how much the browser stores for it.
import { choiceKey } from '../persist/custom-model';
import { CATALOGUE, type CustomModel, type ModelChoice } from '../../generator/catalogue';

export interface ModelEntry {
  key: string;
  choice: ModelChoice;
  label: string;
  /** About how much the browser stores, for the delete confirmation. */
  size: string | null;
}

const gb = (mb: number) => `about ${Math.round(mb / 100) / 10} GB`;

export function modelEntries(custom: CustomModel | null): ModelEntry[] {
  const list: ModelEntry[] = CATALOGUE.map((m) => ({
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
