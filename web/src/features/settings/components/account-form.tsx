/**
 * The account form of /settings/account (spec §2, §4, §5, §8). A creator
 * edits username, e-mail, phone, interests (at least one) and notifications
 * (offers, marketing); a brand user edits first and last name (required),
 * e-mail, phone and marketing notifications, and never sees a username.
 * Uniqueness is checked through the callables only for changed values. An
 * e-mail change first asks for the current password ('Verify Password'), and
 * the update carries it. Success: 'Profile updated!'; failure: the returned
 * error text. The form follows live updates of the record, except fields
 * being edited.
 */
import { useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useDispatch } from 'react-redux';
import { INTERESTS } from '@raly/contracts/constants';
import { isBrandUser, type UserRecord } from '@raly/contracts/records';
import { messages } from '@raly/contracts/messages';
import { brandUserAccountSchema, creatorAccountSchema } from '@raly/contracts/validation';
import { publicUrlPrefixes } from '@/config/public-urls';
import { apiErrorMessage } from '@/lib/api-error';
import { useScrollToTopOnError } from '@/lib/use-scroll-to-top-on-error';
import { useUniquenessChecks } from '@/lib/use-uniqueness-checks';
import type { MeUpdate } from '@raly/contracts/bff-api';
import { useUpdateMeMutation } from '@/lib/me-api';
import { showToast } from '@/lib/toast';
import { normalizingUsername } from '@/lib/username-field';
import { Button } from '@/components/ui/button';
import { CheckboxField } from '@/components/ui/checkbox-field';
import { CheckboxGroup } from '@/components/ui/checkbox-group';
import { TextField } from '@/components/ui/text-field';
import { VerifyPasswordDialog } from '@/features/settings/components/verify-password-dialog';
import {
  accountChanges,
  accountValuesOf,
  type AccountValues,
} from '@/features/settings/utils/account-changes';
import { NameFields } from '@/components/auth/account-fields';

export function AccountForm({ user }: { user: UserRecord }) {
  const scrollToTop = useScrollToTopOnError();
  const brandUser = isBrandUser(user);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<AccountValues>({
    resolver: zodResolver(
      brandUser ? brandUserAccountSchema : creatorAccountSchema,
    ) as unknown as Resolver<AccountValues>,
    // `values` keeps the form on the live record; fields being edited keep what the user typed.
    values: accountValuesOf(user),
    resetOptions: { keepDirtyValues: true },
  });
  const { usernameIsFree, emailIsFree } = useUniquenessChecks(setError);
  const [updateMe, { isLoading: saving }] = useUpdateMeMutation();
  const dispatch = useDispatch();
  /** The changes waiting for the Verify Password dialog (an e-mail change). */
  const [awaitingPassword, setAwaitingPassword] = useState<MeUpdate | null>(null);

  const save = async (changes: MeUpdate) => {
    try {
      const me = Object.keys(changes).length > 0 ? await updateMe(changes).unwrap() : null;
      if (me) reset(accountValuesOf(me.user));
      dispatch(showToast({ type: 'success', message: messages.profileUpdated }));
    } catch (error) {
      dispatch(
        showToast({ type: 'alert', message: apiErrorMessage(error, messages.updateAccountFailed) }),
      );
    }
  };

  const onSubmit = async (values: AccountValues) => {
    const changes = accountChanges(user, { ...accountValuesOf(user), ...values }, brandUser);
    // Spec §5: uniqueness is checked only for changed values (never a brand user's username).
    const [usernameFree, emailFree] = await Promise.all([
      changes.username ? usernameIsFree(changes.username) : true,
      changes.email !== undefined ? emailIsFree(changes.email) : true,
    ]);
    if (!usernameFree || !emailFree) return;
    if (changes.email !== undefined) {
      setAwaitingPassword(changes);
      return;
    }
    await save(changes);
  };

  const onVerified = async (currentPassword: string) => {
    const changes = awaitingPassword;
    setAwaitingPassword(null);
    if (changes) await save({ ...changes, currentPassword });
  };

  const username = normalizingUsername(register('username'));

  return (
    <>
      <form
        noValidate
        onSubmit={handleSubmit(onSubmit, scrollToTop)}
        className="space-y-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200"
      >
        <h2 className="text-lg font-semibold text-slate-900">Account</h2>
        {brandUser ? (
          <div className="grid gap-5 sm:grid-cols-2">
            <NameFields register={register} errors={errors} />
          </div>
        ) : (
          <TextField
            label="Username"
            autoComplete="username"
            leadingText={publicUrlPrefixes.user}
            error={errors.username?.message}
            {...username}
          />
        )}
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          error={errors.email?.message}
          {...register('email')}
        />
        <TextField
          label="Phone number"
          type="tel"
          autoComplete="tel"
          error={errors.phoneNumber?.message}
          {...register('phoneNumber')}
        />
        {!brandUser && (
          <CheckboxGroup
            legend="Interests"
            options={INTERESTS}
            registration={register('interests')}
            error={errors.interests?.message}
          />
        )}
        <fieldset>
          <legend className="text-sm font-medium text-slate-700">Notifications</legend>
          <div className="mt-2 space-y-2">
            {!brandUser && <CheckboxField label="Offers" {...register('notifications.offers')} />}
            <CheckboxField label="Marketing" {...register('notifications.marketing')} />
          </div>
        </fieldset>
        <div className="flex justify-end">
          <Button type="submit" busy={isSubmitting || saving}>
            Save
          </Button>
        </div>
      </form>
      <VerifyPasswordDialog
        open={awaitingPassword !== null}
        onCancel={() => setAwaitingPassword(null)}
        onVerified={onVerified}
      />
    </>
  );
}
