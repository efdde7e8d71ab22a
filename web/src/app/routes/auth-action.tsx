/**
 * /auth/action (spec §2): without apiKey, mode and oobCode the visitor goes
 * home; mode resetPassword shows 'Create a new password' with the reset
 * form; any other mode shows nothing.
 */
import { Navigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useAuthAction } from '@/features/auth/hooks/use-auth-action';
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';
import { RESET_PASSWORD_MODE } from '@/features/auth/utils/auth-action';
import { AuthCard } from '@/app/routes/auth-card';

export function AuthActionRoute() {
  const action = useAuthAction();
  if (!action) return <Navigate to={paths.home.path} replace />;
  if (action.mode !== RESET_PASSWORD_MODE) return null;
  return (
    <AuthCard title={paths.authAction.title}>
      <ResetPasswordForm actionCode={action.oobCode} />
    </AuthCard>
  );
}
