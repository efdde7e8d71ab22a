/**
 * The form of /forgot-password (spec §2, §4, §5): an existing account's
 * e-mail gets a reset link; success says 'Check your email for a password
 * reset link' and clears the field; an unknown e-mail is answered under the
 * field with the server's 'There is no account associated with this email'.
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router-dom';
import { messages } from '@raly/contracts/messages';
import {
  forgotPasswordSchema,
  type ForgotPasswordForm as ForgotPasswordValues,
} from '@raly/contracts/validation';
import { paths } from '@/config/paths';
import { apiErrorMessage } from '@/lib/api-error';
import { Button } from '@/components/ui/button';
import { Notification } from '@/components/ui/notification';
import { TextField } from '@/components/ui/text-field';
import { useSendResetPasswordLinkMutation } from '@/features/auth/api/auth-api';

type Outcome = { kind: 'sent' } | { kind: 'failed'; message: string } | null;

/** The BFF answers 404 when no account has the e-mail (docs/api.md). */
const isUnknownEmail = (error: unknown) => (error as { status?: unknown } | null)?.status === 404;

export function ForgotPasswordForm() {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ForgotPasswordValues>({
    resolver: zodResolver(forgotPasswordSchema),
    defaultValues: { email: '' },
  });
  const [sendResetPasswordLink] = useSendResetPasswordLinkMutation();
  const [outcome, setOutcome] = useState<Outcome>(null);

  const onSubmit = async (values: ForgotPasswordValues) => {
    setOutcome(null);
    try {
      await sendResetPasswordLink(values).unwrap();
      reset({ email: '' });
      setOutcome({ kind: 'sent' });
    } catch (error) {
      const message = apiErrorMessage(error, messages.requestProblem);
      if (isUnknownEmail(error)) setError('email', { type: 'server', message });
      else setOutcome({ kind: 'failed', message });
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-5">
      {outcome?.kind === 'sent' && (
        <Notification kind="success">{messages.resetLinkSent}</Notification>
      )}
      {outcome?.kind === 'failed' && <Notification>{outcome.message}</Notification>}
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...register('email')}
      />
      <Button type="submit" busy={isSubmitting} className="w-full">
        Send reset link
      </Button>
      <p className="text-center text-sm">
        <Link to={paths.login.path} className="font-semibold text-indigo-600 hover:text-indigo-500">
          Go Back
        </Link>
      </p>
    </form>
  );
}
