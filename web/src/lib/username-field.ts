/** Behaviour of every username input (spec §5). */
import type { UseFormRegisterReturn } from 'react-hook-form';
import { normalizeUsernameInput } from '@raly/contracts/validation';

/**
 * @param registration what react-hook-form's `register('username')` returned
 * @returns the same registration whose onChange first removes the first
 *   whitespace and lowercases the text, so the input shows the normalised value
 */
export function normalizingUsername<Name extends string>(
  registration: UseFormRegisterReturn<Name>,
): UseFormRegisterReturn<Name> {
  return {
    ...registration,
    onChange: (event: { target: { value: string } }) => {
      event.target.value = normalizeUsernameInput(event.target.value);
      return registration.onChange(event);
    },
  };
}
