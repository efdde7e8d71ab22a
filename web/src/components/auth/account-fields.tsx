/**
 * Fields every registration form shares (/join/creator, /join/brand and an
 * invitation's /join/team): first and last name, the new password twice
 * with the terms checkbox, and the line linking to the login page. Each
 * takes the form's `register` and its errors.
 */
import { Link } from 'react-router-dom';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { paths } from '@/config/paths';
import { CheckboxField } from '@/components/ui/checkbox-field';
import { TextField } from '@/components/ui/text-field';

type FieldErrorsOf<Name extends string> = Partial<Record<Name, { message?: string }>>;

interface FieldsProps<Name extends string> {
  register: (name: Name) => UseFormRegisterReturn;
  errors: FieldErrorsOf<Name>;
}

/** First name and last name (autocomplete given-name, family-name). */
export function NameFields({ register, errors }: FieldsProps<'firstName' | 'lastName'>) {
  return (
    <>
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
    </>
  );
}

/** Password, its confirmation and the terms checkbox. */
export function NewPasswordFields({
  register,
  errors,
}: FieldsProps<'password' | 'confirmPassword' | 'agreeTerms'>) {
  return (
    <>
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
    </>
  );
}

/** 'Already have an account? Log in'. */
export function LoginPrompt() {
  return (
    <p className="text-center text-sm text-slate-600">
      Already have an account?{' '}
      <Link to={paths.login.path} className="font-semibold text-indigo-600 hover:text-indigo-500">
        Log in
      </Link>
    </p>
  );
}
