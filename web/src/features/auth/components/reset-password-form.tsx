/**
 * The reset form of /auth/action?mode=resetPassword (spec §2, §4, §5): a new
 * password and its confirmation. Success shows 'Password updated! Redirecting
 * now..' and opens /login after RESET_REDIRECT_DELAY_MS; any failure shows
 * 'There was a problem with your request.' (spec §8: no other detail).
 */
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router-dom';
import { RESET_REDIRECT_DELAY_MS } from '@raly/contracts/constants';
import { messages } from '@raly/contracts/messages';
import {
  resetPasswordFormSchema,
  type ResetPasswordForm as ResetPasswordValues,
} from '@raly/contracts/validation';
import { paths } from '@/config/paths';
import { Button } from '@/components/ui/button';
import { Notification } from '@/components/ui/notification';
import { TextField } from '@/components/ui/text-field';
import { useAuthService } from '@/features/auth/hooks/use-auth-service';

type Outcome = 'updated' | 'failed' | null;

/** @param actionCode the link's oobCode */
export function ResetPasswordForm({ actionCode }: { actionCode: string }) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<ResetPasswordValues>({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const auth = useAuthService();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const navigate = useNavigate();

  useEffect(() => {
    if (outcome !== 'updated') return;
    const timer = window.setTimeout(() => navigate(paths.login.path), RESET_REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [outcome, navigate]);

  const onSubmit = async ({ password }: ResetPasswordValues) => {
    setOutcome(null);
    // Spec §8: the service only says whether it worked; the form shows the reset failure text.
    setOutcome((await auth.resetPassword({ actionCode, password })) ? 'updated' : 'failed');
  };

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-5">
      {outcome === 'updated' && (
        <Notification kind="success">{messages.passwordUpdated}</Notification>
      )}
      {outcome === 'failed' && <Notification>{messages.requestProblem}</Notification>}
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <TextField
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        {...register('confirmPassword')}
      />
      <Button type="submit" busy={isSubmitting} disabled={outcome === 'updated'} className="w-full">
        Update password
      </Button>
    </form>
  );
}
