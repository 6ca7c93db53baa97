// Load settings a GGUF needs that llama.cpp does not take from the file by itself, decided from
// its header. Found by running real models (Gemma 3 270M from the Python registry):
// - A sliding-window model (Gemma 2 and 3) keeps only the window's keys and values by default, so
//   llama.cpp cannot reuse a shared prompt prefix: every Self-RAG candidate prefilled its whole
//   prompt (568 tokens computed, 0 reused, where SmolLM2 reused 305 of 506). `swa_full` keeps them.
// - A Gemma GGUF without a chat template (the base model's file has none) was formatted as ChatML,
//   which Gemma never saw. It gets Gemma 3's own template (text only): Gemma has no system role, so
//   the system text opens the first user turn. (A template *name* such as "gemma" is no use here:
//   llama.cpp renders the override as Jinja, and the prompt became the word "gemma".)
import type { GgufTraits } from './vocab';

export const GEMMA_TEMPLATE = [
  '{{ bos_token }}',
  "{%- if messages[0]['role'] == 'system' -%}{%- set first_user_prefix = messages[0]['content'] + '\n\n' -%}{%- set loop_messages = messages[1:] -%}",
  '{%- else -%}{%- set first_user_prefix = "" -%}{%- set loop_messages = messages -%}{%- endif -%}',
  '{%- for message in loop_messages -%}',
  "{%- if message['role'] == 'assistant' -%}{%- set role = 'model' -%}{%- else -%}{%- set role = message['role'] -%}{%- endif -%}",
  "{{ '<start_of_turn>' + role + '\n' + (first_user_prefix if loop.first else '') }}{{ message['content'] | trim }}{{ '<end_of_turn>\n' }}",
  '{%- endfor -%}',
  "{%- if add_generation_prompt -%}{{ '<start_of_turn>model\n' }}{%- endif -%}",
].join('');

export interface LoadFixes {
  swa_full?: true;
  chat_template?: string;
}

export function loadFixes(t: GgufTraits): LoadFixes {
  const fixes: LoadFixes = {};
  if (t.slidingWindow) fixes.swa_full = true;
  if (!t.chatTemplate && /^gemma\d*$/.test(t.architecture ?? '')) fixes.chat_template = GEMMA_TEMPLATE;
  return fixes;
}

/** The header of a GGUF at a URL, from its first bytes (a range request; the rest is never read). */
export async function headerBytes(url: string, signal?: AbortSignal, max = 1 << 24): Promise<Blob> {
  const res = await fetch(url, { headers: { Range: `bytes=0-${max - 1}` }, ...(signal ? { signal } : {}) });
  if (!res.ok || !res.body) return new Blob([]);
  const reader = res.body.getReader();
  const parts: Uint8Array[] = [];
  let got = 0;
  while (got < max) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    got += value.length;
  }
  // A server that ignores Range sends the whole file: stop reading past the header.
  await reader.cancel().catch(() => {});
  return new Blob(parts as BlobPart[]);
}
