// A fieldset of radio buttons for one setting, named once so arrow keys move within it.
import { useId } from 'react';

export function RadioGroup<T extends string>(props: {
  legend: string;
  options: readonly { value: T; label: string }[];
  value: T;
  onChange: (v: T) => void;
  /** When set, each input gets `data-testid={testIdPrefix + value}`. */
  testIdPrefix?: string;
}) {
  const name = useId();
  return (
    <fieldset className="radios">
      <legend>{props.legend}</legend>
      {props.options.map((o) => (
        <label key={o.value} className="check">
          <input
            type="radio"
            name={name}
            value={o.value}
            checked={props.value === o.value}
            data-testid={props.testIdPrefix === undefined ? undefined : `${props.testIdPrefix}${o.value}`}
            onChange={() => props.onChange(o.value)}
          />
          {o.label}
        </label>
      ))}
    </fieldset>
  );
}
