// Where services read the user's settings from. The controller's settings store is their one
// owner (it validates and persists them); services subscribe and react, and keep no copies.
import { defaultSettings, type AppSettings } from '../persist/settings';
import type { Controller } from './controller';

export interface SettingsSource {
  get(): AppSettings;
  subscribe(fn: () => void): () => void;
}

/** The controller's settings, as services follow them. */
export function controllerSettings(controller: Pick<Controller, 'getState' | 'subscribe'>): SettingsSource {
  return { get: () => controller.getState().settings, subscribe: (fn) => controller.subscribe(fn) };
}

/** Settings that never change: the defaults, for a page without a controller (the evaluation page) and for tests. */
export function fixedSettings(settings: AppSettings = defaultSettings()): SettingsSource {
  return { get: () => settings, subscribe: () => () => {} };
}
