/**
 * /onboarding (spec §2): requires login (root layout guard); a spinner while
 * the user's record loads; an already onboarded user goes to the dashboard;
 * otherwise the onboarding flow (features/onboarding: brand placeholder or
 * the creator steps).
 */
import { Navigate } from 'react-router-dom';
import { isOnboarded } from '@raly/contracts/records';
import { paths } from '@/config/paths';
import { OnboardingPage } from '@/features/onboarding/components/onboarding-page';
import { WithMe } from '@/app/routes/with-me';

export function OnboardingRoute() {
  return (
    <WithMe>
      {(me) =>
        isOnboarded(me.user) ? <Navigate to={paths.dashboard.path} replace /> : <OnboardingPage />
      }
    </WithMe>
  );
}
