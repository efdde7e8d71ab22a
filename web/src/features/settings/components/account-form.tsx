/**
 * The account form of /settings/account (spec §2, §5, §8). A creator edits
 * username and e-mail; a brand user edits first name, last name and e-mail
 * (no username). Uniqueness is checked through the callables only for
 * changed values. Saving calls PATCH /api/me; the form follows live updates
 * of the user record unless the field is being edited.
 */
import { useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useDispatch } from 'react-redux';
import { isBrandUser, type UserRecord } from '@raly/contracts/records';
import { messages } from '@raly/contracts/messages';
import { brandUserAccountSchema, creatorAccountSchema } from '@raly/contracts/validation';
import { apiErrorMessage } from '@/lib/api-error';
import { useUniquenessChecks } from '@/lib/use-uniqueness-checks';
import { useUpdateMeMutation, type MeUpdate } from '@/lib/me-api';
import { showToast } from '@/lib/toast';
import { normalizingUsername } from '@/lib/username-field';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';

const creatorFields = creatorAccountSchema.pick({ username: true, email: true });
const brandUserFields = brandUserAccountSchema.pick({ firstName: true, lastName: true, email: true });

interface AccountValues {
  username: string;
  firstName: string;
  lastName: string;
  email: string;
}

const valuesOf = (user: UserRecord): AccountValues => ({
  username: user.username ?? '',
  firstName: user.firstName,
  lastName: user.lastName,
  email: user.email,
});

export function AccountForm({ user }: { user: UserRecord }) {
  const brandUser = isBrandUser(user);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<AccountValues>({
    resolver: zodResolver(brandUser ? brandUserFields : creatorFields) as unknown as Resolver<AccountValues>,
    // `values` keeps the form on the live record; fields being edited keep what the user typed.
    values: valuesOf(user),
    resetOptions: { keepDirtyValues: true },
  });
  const { usernameIsFree, emailIsFree } = useUniquenessChecks(setError);
  const [updateMe] = useUpdateMeMutation();
  const dispatch = useDispatch();

  const onSubmit = async (values: AccountValues) => {
    const usernameChanged = !brandUser && values.username !== user.username;
    const emailChanged = values.email !== user.email;
    // Spec §5: uniqueness is checked only for changed values (never the username of a brand user).
    const [usernameFree, emailFree] = await Promise.all([
      usernameChanged ? usernameIsFree(values.username) : true,
      emailChanged ? emailIsFree(values.email) : true,
    ]);
    if (!usernameFree || !emailFree) return;

    const update: MeUpdate = brandUser ? { firstName: values.firstName, lastName: values.lastName } : {};
    if (usernameChanged) update.username = values.username;
    if (emailChanged) update.email = values.email;
    try {
      await updateMe(update).unwrap();
      dispatch(showToast({ type: 'success', message: messages.profileUpdated }));
    } catch (error) {
      const message = apiErrorMessage(error, messages.updateAccountFailed);
      dispatch(showToast({ type: 'alert', message }));
    }
  };

  const username = normalizingUsername(register('username'));

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-5 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <h2 className="text-lg font-semibold text-slate-900">Account</h2>
      {brandUser ? (
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField label="First name" autoComplete="given-name" error={errors.firstName?.message} {...register('firstName')} />
          <TextField label="Last name" autoComplete="family-name" error={errors.lastName?.message} {...register('lastName')} />
        </div>
      ) : (
        <TextField
          label="Username"
          autoComplete="username"
          error={errors.username?.message}
          {...username}
        />
      )}
      <TextField label="Email" type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
      <div className="flex justify-end">
        <Button type="submit" busy={isSubmitting}>
          Save
        </Button>
      </div>
    </form>
  );
}
