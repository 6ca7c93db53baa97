// A labelled range input showing its value, with an optional hint read by screen readers.
import { useId } from 'react';

export function Slider(props: {
  label: string;
  value: number;
  range: { min: number; max: number; step: number };
  onChange: (v: number) => void;
  testId: string;
  hint?: string;
}) {
  const id = useId();
  return (
    <div className="slider">
      <label htmlFor={id}>
        {props.label} <output htmlFor={id}>{props.value}</output>
      </label>
      <input
        id={id}
        type="range"
        min={props.range.min}
        max={props.range.max}
        step={props.range.step}
        value={props.value}
        data-testid={props.testId}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
        onChange={(e) => props.onChange(Number(e.target.value))}
      />
      {props.hint && (
        <p id={`${id}-hint`} className="muted hint">
          {props.hint}
        </p>
      )}
    </div>
  );
}
