/** A labelled text input with its validation message underneath. */
import { useId, type InputHTMLAttributes, type Ref } from 'react';

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string;
  hint?: string;
  /** Fixed text shown in the field before the input, e.g. a public URL prefix ('/brand/'). */
  leadingText?: string;
  ref?: Ref<HTMLInputElement>;
}

export function TextField({
  label,
  error,
  hint,
  leadingText,
  id,
  className = '',
  ...input
}: TextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const messageId = `${inputId}-message`;
  const field = (
    <input
      id={inputId}
      aria-invalid={error ? true : undefined}
      aria-describedby={error || hint ? messageId : undefined}
      className={`block w-full min-w-0 ${leadingText ? 'rounded-r-md' : 'rounded-md'} border-0 bg-white px-3 py-2 text-slate-900 shadow-sm ring-1 ring-inset placeholder:text-slate-400 focus:outline-none focus:ring-2 focus:ring-inset sm:text-sm ${
        error ? 'ring-red-400 focus:ring-red-500' : 'ring-slate-300 focus:ring-indigo-600'
      }`}
      {...input}
    />
  );
  return (
    <div className={className}>
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      {leadingText ? (
        <div className="mt-1 flex">
          <span className="inline-flex shrink-0 items-center rounded-l-md bg-slate-50 px-3 text-slate-500 ring-1 ring-inset ring-slate-300 sm:text-sm">
            {leadingText}
          </span>
          {field}
        </div>
      ) : (
        <div className="mt-1">{field}</div>
      )}
      {error ? (
        <p id={messageId} role="alert" className="mt-1 text-sm text-red-600">
          {error}
        </p>
      ) : hint ? (
        <p id={messageId} className="mt-1 text-sm text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
