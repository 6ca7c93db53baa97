// Which engine writes answers (`engine=auto|webllm|wllama`) and the CPU engine's GGUF model.
// The user's choice is stored with the other settings; the page's address may override it for
// the session, but a link can only name a catalogue model or a file of this site's own model
// packs (`gguf=models/<pack>/<file>.gguf`, `ggufNative=1` for a Self-RAG GGUF), never an outside
// address: opening a link must not make the reader's browser fetch and run someone's model.
import { findModel } from '../../generator/catalogue';
import { DEFAULT_GGUF_ID, findGguf, type GgufChoice } from '../../generator/gguf-catalogue';
import { urlProblem } from './custom-model';

export type EngineName = 'auto' | 'webllm' | 'wllama';
export const ENGINE_NAMES: readonly EngineName[] = ['auto', 'webllm', 'wllama'];

export interface EngineChoice {
  engine: EngineName;
  gguf: GgufChoice;
}

export function defaultEngineChoice(): EngineChoice {
  return { engine: 'auto', gguf: { kind: 'gguf', id: DEFAULT_GGUF_ID } };
}

/** A relative path into the site's own model packs; no scheme, no `..`, no query. */
const PACK_GGUF = /^models\/(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*\.gguf$/;

/** Why a GGUF address typed by the user (or read back from storage) cannot be used, or null. */
export function ggufUrlProblem(raw: string, pageUrl?: string): string | null {
  const problem = urlProblem('GGUF model address', raw, pageUrl);
  if (problem) return problem;
  const path = new URL(raw.trim(), pageUrl ?? 'https://this-site.invalid/').pathname;
  return path.endsWith('.gguf') ? null : `The GGUF model address must end in .gguf (got "${raw.trim().slice(0, 80)}").`;
}

function record(v: unknown): Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** A stored GGUF choice that is still a catalogue model or a usable address, else null. */
export function sanitizeGguf(raw: unknown, pageUrl?: string): GgufChoice | null {
  const r = record(raw);
  if (r.kind === 'gguf') return typeof r.id === 'string' && findGguf(r.id) ? { kind: 'gguf', id: r.id } : null;
  if (r.kind === 'gguf-url' && typeof r.url === 'string' && !ggufUrlProblem(r.url, pageUrl)) {
    return { kind: 'gguf-url', url: r.url.trim(), native: r.native === true };
  }
  return null;
}

/** Field by field: a bad engine keeps the base engine, a bad model keeps the base model. */
export function sanitizeEngineChoice(
  raw: unknown,
  base: EngineChoice = defaultEngineChoice(),
  pageUrl?: string,
): EngineChoice {
  const r = record(raw);
  const engine =
    typeof r.engine === 'string' && (ENGINE_NAMES as readonly string[]).includes(r.engine)
      ? (r.engine as EngineName)
      : base.engine;
  return { engine, gguf: sanitizeGguf(r.gguf, pageUrl) ?? base.gguf };
}

/** The session's engine: the stored choice, with what the address may override. */
export function engineInput(search: string, stored: EngineChoice = defaultEngineChoice()): EngineChoice {
  const p = new URLSearchParams(search);
  const e = p.get('engine');
  const engine = e && (ENGINE_NAMES as readonly string[]).includes(e) ? (e as EngineName) : stored.engine;
  const g = p.get('gguf');
  const gguf: GgufChoice = !g
    ? stored.gguf
    : findGguf(g)
      ? { kind: 'gguf', id: g }
      : PACK_GGUF.test(g)
        ? { kind: 'gguf-url', url: g, native: p.get('ggufNative') === '1' }
        : stored.gguf;
  return { engine, gguf };
}

/**
 * Which model answers, and its context window (for the history a follow-up carries): the chosen
 * GGUF model where llama.cpp was chosen, else the web-llm model of the settings.
 */
export function answeringModel(settings: { model: string; engine: EngineChoice }): {
  id: string;
  contextWindow: number;
} {
  const { engine, gguf } = settings.engine;
  const wllama = engine === 'wllama' && gguf.kind === 'gguf' ? findGguf(gguf.id) : undefined;
  const model = wllama ?? findModel(settings.model);
  return { id: wllama?.id ?? settings.model, contextWindow: model?.contextWindow ?? 4096 };
}
