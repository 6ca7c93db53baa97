// A model the user compiled themselves, as typed into the picker's form or read
// back from storage. Both are untrusted: the URLs end up as fetch targets in the
// generator worker, so only https or this site's own files are accepted.
import { CATALOGUE, type CustomModel, type ModelChoice } from '../../generator/catalogue';

export interface CustomModelInput {
  name: string;
  weightsUrl: string;
  libUrl: string;
  native: boolean;
}

/** Stands in for the page when there is none (Node): relative paths still count as the site's own. */
const NO_PAGE = 'https://this-site.invalid/';
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const MAX_URL = 2000;

/** Why a URL cannot be used, or null. Relative paths resolve against the page, so they are same-origin. */
export function urlProblem(label: string, raw: string, pageUrl: string = NO_PAGE): string | null {
  const text = raw.trim();
  if (!text) return `The ${label} is missing.`;
  if (text.length > MAX_URL) return `The ${label} is longer than ${MAX_URL} characters.`;
  let url: URL;
  let page: URL;
  try {
    page = new URL(pageUrl);
    url = new URL(text, page);
  } catch {
    return `The ${label} "${text.slice(0, 80)}" is not a valid address.`;
  }
  if (url.protocol === 'https:' || url.origin === page.origin) return null;
  return `The ${label} must start with https:// or be a file on this site (got "${text.slice(0, 80)}"): the browser would block or expose anything else.`;
}

/** Checks the form; on success the model to store, trimmed. */
export function checkCustomModel(
  input: CustomModelInput,
  pageUrl?: string,
): { model: CustomModel } | { problem: string } {
  const name = input.name.trim();
  if (!name) return { problem: 'Give the model a name (its model id, e.g. selfrag_llama2_7b-q4f16_1-MLC).' };
  if (!NAME.test(name)) {
    return {
      problem: `The name "${name.slice(0, 80)}" may only use letters, digits, dots, dashes and underscores (up to 100), starting with a letter or digit.`,
    };
  }
  if (CATALOGUE.some((m) => m.id === name || m.builds.f16.modelId === name || m.builds.f32.modelId === name)) {
    return { problem: `"${name}" is already a model in the list; choose it there, or give your build another name.` };
  }
  const problem =
    urlProblem('weights URL', input.weightsUrl, pageUrl) ?? urlProblem('model library URL', input.libUrl, pageUrl);
  if (problem) return { problem };
  return {
    model: { name, weightsUrl: input.weightsUrl.trim(), libUrl: input.libUrl.trim(), native: input.native === true },
  };
}

/** A stored custom model that still passes the form's checks, else null. */
export function sanitizeCustomModel(raw: unknown, pageUrl?: string): CustomModel | null {
  if (raw === null || typeof raw !== 'object') return null;
  const r = raw as Record<string, unknown>;
  if (typeof r.name !== 'string' || typeof r.weightsUrl !== 'string' || typeof r.libUrl !== 'string') return null;
  const checked = checkCustomModel(
    { name: r.name, weightsUrl: r.weightsUrl, libUrl: r.libUrl, native: r.native === true },
    pageUrl,
  );
  return 'model' in checked ? checked.model : null;
}

/** The value the picker uses for the custom model among catalogue ids. */
export const CUSTOM_MODEL_KEY = 'custom';

/** What the generator should run for a picker value; null when 'custom' has no model yet. */
export function modelChoice(model: string, custom: CustomModel | null): ModelChoice | null {
  if (model === CUSTOM_MODEL_KEY) return custom ? { kind: 'custom', ...custom } : null;
  return { kind: 'catalogue', id: model };
}

/** A stable key per choice, for the downloaded marks. */
export function choiceKey(choice: ModelChoice): string {
  return choice.kind === 'catalogue'
    ? choice.id
    : `${CUSTOM_MODEL_KEY}:${choice.name}|${choice.weightsUrl}|${choice.libUrl}`;
}

/** The catalogue model with the least memory: the "smaller model" way forward after a failure. */
export function smallestModelId(): string {
  return [...CATALOGUE].sort((a, b) => a.builds.f32.vramMB - b.builds.f32.vramMB)[0]!.id;
}
