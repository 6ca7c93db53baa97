import type { Theme } from '../app/persist/settings';

export function ThemeSwitch({ theme, onChange }: { theme: Theme; onChange: (t: Theme) => void }) {
  return (
    <label className="theme">
      <span className="theme-label">Theme</span>{' '}
      <select value={theme} onChange={(e) => onChange(e.target.value as Theme)} data-testid="theme">
        <option value="system">System</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </label>
  );
}
