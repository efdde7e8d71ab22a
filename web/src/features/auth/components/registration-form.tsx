/**
 * The registration form of /join/creator and /join/brand (spec §2, §5):
 * the shared zod schemas validate in the browser, the callables check that
 * username and e-mail are free (on blur and again on submit), and a created
 * account is signed in and sent to the dashboard.
 */
import { useState } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useDispatch } from 'react-redux';
import { Link, useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { messages } from '@raly/contracts/messages';
import { brandRegistrationSchema, creatorRegistrationSchema } from '@raly/contracts/validation';
import { paths } from '@/config/paths';
import { apiErrorMessage } from '@/lib/api-error';
import { useUniquenessChecks } from '@/lib/use-uniqueness-checks';
import { signIn } from '@/lib/session';
import { normalizingUsername } from '@/lib/username-field';
import { showToast } from '@/lib/toast';
import { useScrollToTopOnError } from '@/lib/use-scroll-to-top-on-error';
import { Button } from '@/components/ui/button';
import { CheckboxField } from '@/components/ui/checkbox-field';
import { TextField } from '@/components/ui/text-field';
import { useCreateAccountMutation } from '@/features/auth/api/auth-api';

type RegistrationValues = z.input<typeof brandRegistrationSchema>;

const emptyRegistration: RegistrationValues = {
  username: '',
  email: '',
  password: '',
  confirmPassword: '',
  agreeTerms: false,
  firstName: '',
  lastName: '',
  company: '',
  website: '',
};

export function RegistrationForm({ mode }: { mode: 'creator' | 'brand' }) {
  const isBrand = mode === 'brand';
  const schema = isBrand ? brandRegistrationSchema : creatorRegistrationSchema;
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<RegistrationValues>({
    resolver: zodResolver(schema) as unknown as Resolver<RegistrationValues>,
    defaultValues: emptyRegistration,
  });
  const { usernameIsFree, emailIsFree } = useUniquenessChecks(setError);
  const [createAccount] = useCreateAccountMutation();
  const dispatch = useDispatch();
  const navigate = useNavigate();
  const [signingIn, setSigningIn] = useState(false);
  const scrollToTop = useScrollToTopOnError();

  const onSubmit = async (values: RegistrationValues) => {
    const [usernameFree, emailFree] = await Promise.all([
      usernameIsFree(values.username),
      emailIsFree(values.email),
    ]);
    if (!usernameFree || !emailFree) return;
    try {
      const command = isBrand
        ? {
            isBrand: true as const,
            registration: values as z.output<typeof brandRegistrationSchema>,
          }
        : {
            isBrand: false as const,
            registration: values as z.output<typeof creatorRegistrationSchema>,
          };
      const tokens = await createAccount(command).unwrap();
      setSigningIn(true);
      await signIn(tokens);
      navigate(paths.dashboard.path);
    } catch (error) {
      setSigningIn(false);
      const message = apiErrorMessage(error, messages.createAccountFailed);
      dispatch(showToast({ type: 'alert', title: 'Registration failed', message }));
    }
  };

  const username = normalizingUsername(register('username'));
  const email = register('email');

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit, scrollToTop)} className="space-y-5">
      {isBrand && (
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            label="First name"
            autoComplete="given-name"
            error={errors.firstName?.message}
            {...register('firstName')}
          />
          <TextField
            label="Last name"
            autoComplete="family-name"
            error={errors.lastName?.message}
            {...register('lastName')}
          />
          <TextField
            label="Company"
            autoComplete="organization"
            error={errors.company?.message}
            {...register('company')}
          />
          <TextField
            label="Website"
            type="url"
            placeholder="https://"
            autoComplete="url"
            error={errors.website?.message}
            {...register('website')}
          />
        </div>
      )}
      <TextField
        label="Username"
        autoComplete="username"
        error={errors.username?.message}
        {...username}
        onBlur={async (event) => {
          await username.onBlur(event);
          await usernameIsFree(event.target.value);
        }}
      />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        {...email}
        onBlur={async (event) => {
          await email.onBlur(event);
          await emailIsFree(event.target.value);
        }}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <TextField
        label="Confirm password"
        type="password"
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        {...register('confirmPassword')}
      />
      <CheckboxField
        label="I agree to the terms and conditions"
        error={errors.agreeTerms?.message}
        {...register('agreeTerms')}
      />
      <Button type="submit" busy={isSubmitting || signingIn} className="w-full">
        {isBrand ? 'Join as a brand' : 'Join as a creator'}
      </Button>
      <p className="text-center text-sm text-slate-600">
        Already have an account?{' '}
        <Link to={paths.login.path} className="font-semibold text-indigo-600 hover:text-indigo-500">
          Log in
        </Link>
      </p>
    </form>
  );
}
