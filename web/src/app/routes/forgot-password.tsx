/** /forgot-password (spec §2): send a reset link by e-mail; Go Back to login. */
import { paths } from '@/config/paths';
import { ForgotPasswordForm } from '@/features/auth/components/forgot-password-form';
import { AuthCard } from '@/app/routes/auth-card';

export function ForgotPasswordRoute() {
  return (
    <AuthCard
      title={paths.forgotPassword.title}
      intro="Enter your account's e-mail and we'll send you a link to choose a new password."
    >
      <ForgotPasswordForm />
    </AuthCard>
  );
}
