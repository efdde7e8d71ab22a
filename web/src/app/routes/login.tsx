/** /login (spec §2). */
import { LoginForm } from '@/features/auth/components/login-form';
import { AuthCard } from '@/app/routes/auth-card';

export function LoginRoute() {
  return (
    <AuthCard title="Log in to Raly">
      <LoginForm />
    </AuthCard>
  );
}
