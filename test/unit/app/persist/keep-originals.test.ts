import { describe, expect, it } from 'vitest';
import {
  defaultSettings,
  loadSettings,
  sanitizeSettings,
  saveSettings,
  SETTINGS_KEY,
} from '../../../../src/app/persist/settings';

describe('the keep-originals setting', () => {
  it('is on by default, survives a save, and a bad stored value falls back without losing the rest', () => {
    expect(defaultSettings().keepOriginals).toBe(true);
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    saveSettings(storage, { ...defaultSettings(), keepOriginals: false, temperature: 0.7 });
    expect(loadSettings(storage).keepOriginals).toBe(false);
    const saved = JSON.parse(store.get(SETTINGS_KEY)!);
    saved.settings.keepOriginals = 'maybe';
    store.set(SETTINGS_KEY, JSON.stringify(saved));
    expect(loadSettings(storage)).toMatchObject({ keepOriginals: true, temperature: 0.7 });
    // Settings saved before the setting existed keep originals.
    expect(sanitizeSettings({ temperature: 0.3 }).keepOriginals).toBe(true);
  });
});
