/**
 * A react-hook-form resolver for forms whose fields are not the shape of the
 * shared zod schema (e.g. an amount typed in major units is sent in
 * minor units, a date input as an ISO date-time). The form's input is mapped
 * to the schema's shape, checked by the shared schema (so the browser and
 * the services say the same message for the same rule), and each issue is
 * shown under the field it came from.
 */
import type { FieldError, FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';

/**
 * @param schema the shared schema (e.g. offerFormSchema)
 * @param toCandidate maps the form's input to what the schema checks
 * @param fieldOf names the form field an issue's path belongs to
 * @returns a resolver whose values are the schema's output; the first issue of a field is its message
 */
export function mappedZodResolver<Input extends FieldValues, Output>(
  schema: z.ZodType<Output>,
  toCandidate: (input: Input) => unknown,
  fieldOf: (path: readonly PropertyKey[]) => keyof Input & string,
): Resolver<Input, unknown, Output> {
  return async (input) => {
    const result = await schema.safeParseAsync(toCandidate(input));
    if (result.success) return { values: result.data, errors: {} };
    const errors: Record<string, FieldError> = {};
    for (const issue of result.error.issues) {
      const field = fieldOf(issue.path);
      errors[field] ??= { type: issue.code, message: issue.message };
    }
    return { values: {}, errors: errors as FieldErrors<Input> };
  };
}
