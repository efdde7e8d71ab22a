/**
 * A labelled multi-line text input with its validation message underneath
 * and, when `maxLength` is given, a count of the characters typed so the
 * user sees how close they are to the limit (the limit itself is the
 * form's rule, not the element's).
 */
import { useId, type Ref, type TextareaHTMLAttributes } from 'react';

export interface TextAreaFieldProps extends Omit<
  TextareaHTMLAttributes<HTMLTextAreaElement>,
  'maxLength'
> {
  label: string;
  error?: string;
  /** Characters typed so far (shown with `maxLength`). */
  length?: number;
  maxLength?: number;
  ref?: Ref<HTMLTextAreaElement>;
}

export function TextAreaField({
  label,
  error,
  length,
  maxLength,
  id,
  className = '',
  rows = 4,
  ...textarea
}: TextAreaFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const countId = `${inputId}-count`;
  const messageId = `${inputId}-message`;
  const counted = maxLength !== undefined && length !== undefined;
  const describedBy = [error ? messageId : '', counted ? countId : ''].filter(Boolean).join(' ');
  return (
    <div className={className}>
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea
        id={inputId}
        rows={rows}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
        className={`mt-1 block w-full rounded-md border-0 bg-white px-3 py-2 text-slate-900 shadow-sm ring-1 ring-inset placeholder:text-slate-400 focus:outline-none focus:ring-2 focus:ring-inset sm:text-sm ${
          error ? 'ring-red-400 focus:ring-red-500' : 'ring-slate-300 focus:ring-indigo-600'
        }`}
        {...textarea}
      />
      <div className="mt-1 flex justify-between gap-4 text-sm">
        {error ? (
          <p id={messageId} role="alert" className="text-red-600">
            {error}
          </p>
        ) : (
          <span />
        )}
        {counted && (
          <p
            id={countId}
            className={`shrink-0 tabular-nums ${length > maxLength ? 'text-red-600' : 'text-slate-500'}`}
          >
            {length}/{maxLength}
          </p>
        )}
      </div>
    </div>
  );
}
