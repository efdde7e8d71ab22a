/**
 * A refused command in a work form: the BFF's `fields` message under its
 * field when the form has that field, else the error text above the
 * buttons (docs/api.md: `{ error: { code, message, fields? } }`).
 */
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { messages } from '@raly/contracts/messages';
import { apiErrorMessage } from '@/lib/api-error';

/**
 * @param error what the failed mutation rejected with
 * @param fields the form's fields that a `fields` entry may name
 */
export function showRefusal<Values extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<Values>,
  fields: readonly Path<Values>[],
): void {
  const named =
    (error as { data?: { error?: { fields?: Record<string, unknown> } } } | null)?.data?.error
      ?.fields ?? {};
  const field = fields.find((each) => typeof named[each] === 'string');
  if (field) setError(field, { type: 'server', message: named[field] as string });
  else
    setError('root.server', {
      type: 'server',
      message: apiErrorMessage(error, messages.genericProblem),
    });
}
