// A side panel that is always open beside the answer on a wide screen and folds into a
// collapsible section below it on a phone, so the question and the answer come first.
import { useState, type ReactNode } from 'react';
import { useWide } from './hooks';

export function Drawer(props: { name: string; label: string; children: ReactNode; className?: string }) {
  const wide = useWide();
  const [open, setOpen] = useState(false);
  return (
    <details
      className={`drawer drawer-${props.name} ${props.className ?? ''}`}
      open={wide || open}
      data-testid={`drawer-${props.name}`}
      onToggle={(e) => {
        if (!wide) setOpen((e.currentTarget as HTMLDetailsElement).open);
      }}
    >
      <summary className="drawer-summary">{props.label}</summary>
      {props.children}
    </details>
  );
}
