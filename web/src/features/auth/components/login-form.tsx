/**
 * The login form of /login (spec §2, §4): e-mail and password validated by
 * the shared schema; a failed sign-in shows 'Incorrect login', or 'This account
 * is suspended.' when the BFF refuses a suspended account (docs/console.md);
 * success goes to the dashboard.
 */
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from 'react-router-dom';
import { messages } from '@raly/contracts/messages';
import { loginSchema, type LoginForm as LoginValues } from '@raly/contracts/validation';
import { paths } from '@/config/paths';
import { Button } from '@/components/ui/button';
import { Notification } from '@/components/ui/notification';
import { TextField } from '@/components/ui/text-field';
import { useAuthService } from '@/features/auth/hooks/use-auth-service';
import type { LoginOutcome } from '@/features/auth/services/auth-service';

const linkClass = 'font-semibold text-indigo-600 hover:text-indigo-500';

export function LoginForm() {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginValues>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: '', password: '' },
  });
  const auth = useAuthService();
  const [outcome, setOutcome] = useState<LoginOutcome | null>(null);
  const navigate = useNavigate();

  const onSubmit = async (values: LoginValues) => {
    setOutcome(null);
    // Spec §8: the service says only how it ended; the form picks the words.
    const ended = await auth.login(values);
    if (ended === 'signed-in') navigate(paths.dashboard.path);
    else setOutcome(ended);
  };

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-5">
      {outcome === 'refused' && <Notification>{messages.incorrectLogin}</Notification>}
      {outcome === 'suspended' && <Notification>{messages.accountSuspended}</Notification>}
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...register('email')}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <div className="flex justify-end text-sm">
        <Link to={paths.forgotPassword.path} className={linkClass}>
          Forgot Password?
        </Link>
      </div>
      <Button type="submit" busy={isSubmitting} className="w-full">
        Log in
      </Button>
      <p className="text-center text-sm text-slate-600">
        New to Raly? Sign up{' '}
        <Link to={paths.joinCreator.path} className={linkClass}>
          as a creator
        </Link>{' '}
        or{' '}
        <Link to={paths.joinBrand.path} className={linkClass}>
          as a brand
        </Link>
      </p>
    </form>
  );
}
