// A side panel that is always open beside the answer on a wide screen and folds into a
// collapsible section below it on a phone, so the question and the answer come first.
import { useState, type ReactNode } from 'react';
import { useWide } from './hooks';

export function Drawer(props: {
  name: string;
  label: ReactNode;
  children: ReactNode;
  className?: string;
  /** Open on a phone until the visitor folds it (the library of a newcomer, who must see how to add documents). */
  suggestOpen?: boolean;
}) {
  const wide = useWide();
  // null: the visitor has not toggled it, so the suggestion holds.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const open = wide || (chosen ?? props.suggestOpen ?? false);
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
