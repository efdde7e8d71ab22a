/**
 * The bio textarea of the brand profile (spec §5: optional, 32 to 280
 * characters when given) with its character count, so the user sees how
 * close they are to either bound.
 */
import { useId, type Ref, type TextareaHTMLAttributes } from 'react';
import { BIO_MAX_LENGTH } from '@raly/contracts/constants';

export interface BioFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  /** Characters typed so far. */
  length: number;
  error?: string;
  ref?: Ref<HTMLTextAreaElement>;
}

export function BioField({ label, length, error, id, ...textarea }: BioFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const countId = `${inputId}-count`;
  const messageId = `${inputId}-message`;
  return (
    <div>
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea
        id={inputId}
        rows={4}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${messageId} ${countId}` : countId}
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
        <p
          id={countId}
          className={`shrink-0 tabular-nums ${length > BIO_MAX_LENGTH ? 'text-red-600' : 'text-slate-500'}`}
        >
          {length}/{BIO_MAX_LENGTH}
        </p>
      </div>
    </div>
  );
}
