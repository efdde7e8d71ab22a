/**
 * The registration form of /join/creator and /join/brand (spec §2, §5):
 * the shared zod schemas validate in the browser, the callables check that
 * username and e-mail are free (on blur and again on submit), and a created
 * account is signed in and sent to the dashboard.
 */
import { useForm, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { brandRegistrationSchema, creatorRegistrationSchema } from '@raly/contracts/validation';
import { useUniquenessChecks } from '@/lib/use-uniqueness-checks';
import { normalizingUsername } from '@/lib/username-field';
import { useScrollToTopOnError } from '@/lib/use-scroll-to-top-on-error';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { useCreateAccountMutation } from '@/features/auth/api/auth-api';
import { LoginPrompt, NameFields, NewPasswordFields } from '@/components/auth/account-fields';
import { useRegisterAndSignIn } from '@/lib/use-register-and-sign-in';

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
  const { signingIn, registerAndSignIn } = useRegisterAndSignIn();
  const scrollToTop = useScrollToTopOnError();

  const onSubmit = async (values: RegistrationValues) => {
    const [usernameFree, emailFree] = await Promise.all([
      usernameIsFree(values.username),
      emailIsFree(values.email),
    ]);
    if (!usernameFree || !emailFree) return;
    const command = isBrand
      ? {
          isBrand: true as const,
          registration: values as z.output<typeof brandRegistrationSchema>,
        }
      : {
          isBrand: false as const,
          registration: values as z.output<typeof creatorRegistrationSchema>,
        };
    await registerAndSignIn(() => createAccount(command).unwrap());
  };

  const username = normalizingUsername(register('username'));
  const email = register('email');

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit, scrollToTop)} className="space-y-5">
      {isBrand && (
        <div className="grid gap-5 sm:grid-cols-2">
          <NameFields register={register} errors={errors} />
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
      <NewPasswordFields register={register} errors={errors} />
      <Button type="submit" busy={isSubmitting || signingIn} className="w-full">
        {isBrand ? 'Join as a brand' : 'Join as a creator'}
      </Button>
      <LoginPrompt />
    </form>
  );
}
