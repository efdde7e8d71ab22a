/** /join/creator and /join/brand — the registration form in creator or brand mode (spec §2). */
import { paths } from '@/config/paths';
import { RegistrationForm } from '@/features/auth/components/registration-form';
import { AuthCard } from '@/app/routes/auth-card';

const privacyPromise =
  'Your personal info (name and e-mail) is never disclosed to brands or other members.';

export function JoinCreatorRoute() {
  return (
    <AuthCard title={paths.joinCreator.title} intro={privacyPromise}>
      <RegistrationForm mode="creator" />
    </AuthCard>
  );
}

export function JoinBrandRoute() {
  return (
    <AuthCard title={paths.joinBrand.title} intro={privacyPromise}>
      <RegistrationForm mode="brand" />
    </AuthCard>
  );
}
