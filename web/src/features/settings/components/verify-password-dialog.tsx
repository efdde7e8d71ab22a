/**
 * The 'Verify Password' dialog the account form opens before an e-mail
 * change (spec §4, §5, §7 validateUserCredientials): empty → 'Please enter a
 * password.'; wrong → 'Incorrect password'; Cancel (or Escape) closes it; the
 * right password is handed to `onVerified` so the update can carry it.
 * A native modal <dialog>: focus moves into it, the page behind is inert.
 */
import { useCallback, useId } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { messages } from '@raly/contracts/messages';
import { verifyPasswordSchema } from '@raly/contracts/validation';
import { apiErrorMessage } from '@/lib/api-error';
import { Button } from '@/components/ui/button';
import { ModalDialog } from '@/components/ui/modal-dialog';
import { TextField } from '@/components/ui/text-field';
import { useVerifyPasswordMutation } from '@/features/settings/api/account-api';

export interface VerifyPasswordDialogProps {
  open: boolean;
  onCancel: () => void;
  /** Called with the verified password; the dialog closes when `open` turns false. */
  onVerified: (password: string) => void;
}

export function VerifyPasswordDialog({ open, onCancel, onVerified }: VerifyPasswordDialogProps) {
  const titleId = useId();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(verifyPasswordSchema), defaultValues: { password: '' } });
  const [verifyPassword] = useVerifyPasswordMutation();

  const onOpen = useCallback(() => reset({ password: '' }), [reset]);

  const onSubmit = async ({ password }: { password: string }) => {
    try {
      await verifyPassword({ password }).unwrap();
      onVerified(password);
    } catch (error) {
      setError('password', {
        type: 'server',
        message: apiErrorMessage(error, messages.incorrectPassword),
      });
    }
  };

  return (
    <ModalDialog open={open} onClose={onCancel} onOpen={onOpen} labelledBy={titleId}>
      <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-5">
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          Verify Password
        </h2>
        <p className="text-sm text-slate-600">Enter your current password to change your e-mail.</p>
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          autoFocus
          error={errors.password?.message}
          {...register('password')}
        />
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" busy={isSubmitting}>
            Verify
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}
