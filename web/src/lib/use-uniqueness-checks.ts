/**
 * The server-side uniqueness rules of spec §5 for forms: asks the callables
 * whether a username or e-mail is taken and puts the spec message on the
 * field when it is.
 */
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { messages } from '@raly/contracts/messages';
import { emailSchema, usernameSchema } from '@raly/contracts/validation';
import { useCheckEmailExistsMutation, useCheckUsernameExistsMutation } from '@/lib/callables-api';

/** A form with a username and, unless it has none (the brand profile), an e-mail. */
interface UniqueFields extends FieldValues {
  username: string;
  email?: string;
}

/**
 * @param setError the form's setError
 * @returns `usernameIsFree(value)` and `emailIsFree(value)`: false (and the
 *   field shows 'Username is already taken' / the e-mail message) when taken;
 *   true when free, when the value is not valid yet (the schema reports
 *   that), or when the check itself failed (the server decides at save)
 */
export function useUniquenessChecks<Values extends UniqueFields>(
  setError: UseFormSetError<Values>,
) {
  const [checkUsernameExists] = useCheckUsernameExistsMutation();
  const [checkEmailExists] = useCheckEmailExistsMutation();

  const usernameIsFree = async (username: string): Promise<boolean> => {
    if (!usernameSchema.safeParse(username).success) return true;
    const taken = await checkUsernameExists({ username })
      .unwrap()
      .catch(() => false);
    if (taken)
      setError('username' as Path<Values>, { type: 'server', message: messages.usernameTaken });
    return !taken;
  };

  const emailIsFree = async (email: string): Promise<boolean> => {
    const parsed = emailSchema.safeParse(email);
    if (!parsed.success) return true;
    const taken = await checkEmailExists({ email: parsed.data })
      .unwrap()
      .catch(() => false);
    if (taken) setError('email' as Path<Values>, { type: 'server', message: messages.emailTaken });
    return !taken;
  };

  return { usernameIsFree, emailIsFree };
}
