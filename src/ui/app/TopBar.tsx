// The page's header: its name, the two pages (answer, evaluate), the share link and the theme.
import { useState } from 'react';
import type { Theme } from '../../app/persist/settings';
import { ThemeSwitch } from '../ThemeSwitch';

export function TopBar(props: {
  onEval: boolean;
  theme: Theme;
  onTheme: (theme: Theme) => void;
  /** The link to the question and settings shown. */
  onShare: () => string;
}) {
  const [copied, setCopied] = useState<string | null>(null);
  return (
    <header className="top">
      <h1>Self-RAG in your browser</h1>
      <nav aria-label="Pages">
        <a href="#/" aria-current={props.onEval ? undefined : 'page'}>
          Answer
        </a>
        <a href="#/eval" aria-current={props.onEval ? 'page' : undefined}>
          Evaluate
        </a>
      </nav>
      <div className="top-actions">
        <button
          type="button"
          onClick={() => {
            const url = props.onShare();
            void navigator.clipboard?.writeText(url).then(
              () => setCopied('Link copied.'),
              () => setCopied(url),
            );
          }}
        >
          {/* On a phone the tail is read out but not shown, so the theme's name fits beside it. */}
          Copy link<span className="wide-words"> to this question</span>
        </button>
        {copied && (
          <span className="muted" role="status">
            {copied}
          </span>
        )}
        <ThemeSwitch theme={props.theme} onChange={props.onTheme} />
      </div>
    </header>
  );
}
