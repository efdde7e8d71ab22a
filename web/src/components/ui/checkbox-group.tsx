/**
 * A group of checkboxes for one list-valued form field (e.g. interests):
 * a fieldset with its legend, one labelled checkbox per option, and the
 * field's validation message underneath. Register the field once and pass
 * the registration; every checkbox shares its name, so react-hook-form
 * reads the checked options as an array.
 */
import { useId } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

export interface CheckboxGroupProps {
  legend: string;
  options: readonly string[];
  /** What each option reads as (default: the option itself). */
  labels?: Readonly<Record<string, string>>;
  registration: UseFormRegisterReturn;
  error?: string;
  className?: string;
}

export function CheckboxGroup({
  legend,
  options,
  labels,
  registration,
  error,
  className = '',
}: CheckboxGroupProps) {
  const groupId = useId();
  const messageId = `${groupId}-message`;
  return (
    <fieldset aria-describedby={error ? messageId : undefined} className={className}>
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      <div className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-3">
        {options.map((option) => (
          <label
            key={option}
            className="flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm text-slate-700 ring-1 ring-slate-200 ring-inset has-[:checked]:bg-indigo-50 has-[:checked]:ring-indigo-300"
          >
            <input
              type="checkbox"
              value={option}
              className="size-4 rounded border-slate-300 text-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
              {...registration}
            />
            {labels?.[option] ?? option}
          </label>
        ))}
      </div>
      {error && (
        <p id={messageId} role="alert" className="mt-1 text-sm text-red-600">
          {error}
        </p>
      )}
    </fieldset>
  );
}
