import { normaliseNewlines } from './validate';

export function parsePlainText(text: string): { text: string; title?: string } {
  return { text: normaliseNewlines(text).trim() };
}
