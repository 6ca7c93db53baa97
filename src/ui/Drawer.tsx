// A side panel that is always open beside the answer on a wide screen and folds into a
// collapsible section below it on a phone, so the question and the answer come first.
import { useState, type ReactNode } from 'react';
import { useWide } from './hooks';

export function Drawer(props: {
  name: string;
  label: ReactNode;
  children: ReactNode;
  className?: string;
  /**
   * Open on a phone while this holds (a newcomer's library, a batch going in, a report not yet
   * read). It opens the drawer each time it starts to hold; it never folds a drawer by itself
   * once it stops: what the visitor is reading stays until they fold it.
   */
  suggestOpen?: boolean;
}) {
  const wide = useWide();
  const suggested = props.suggestOpen ?? false;
  // null: the visitor has not toggled it since the suggestion last started, so the suggestion holds.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const [lastSuggested, setLastSuggested] = useState(suggested);
  if (suggested !== lastSuggested) {
    // Adjusted while rendering (React's pattern for state that follows a prop): a new reason to look
    // reopens it; the end of one keeps open what the suggestion had opened.
    setLastSuggested(suggested);
    setChosen(suggested ? null : (chosen ?? lastSuggested));
  }
  const open = wide || (chosen ?? suggested);
  return (
    <details
      className={`drawer drawer-${props.name} ${props.className ?? ''}`}
      open={open}
      data-testid={`drawer-${props.name}`}
      onToggle={(e) => {
        const now = (e.currentTarget as HTMLDetailsElement).open;
        // The toggle event also follows the page's own changes of `open`: only a change that differs is the visitor's.
        if (!wide && now !== open) setChosen(now);
      }}
    >
      <summary className="drawer-summary">{props.label}</summary>
      {props.children}
    </details>
  );
}
