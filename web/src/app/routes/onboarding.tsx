/**
 * /onboarding (spec §2): requires login (root layout guard); a spinner while
 * the user's record loads; an already onboarded user goes to the dashboard;
 * otherwise the onboarding flow (features/onboarding: the brand steps or the
 * creator steps). The brand step shows the brand's profile image with its
 * picker (features/images), optional to change.
 */
import { Navigate } from 'react-router-dom';
import { isOnboarded } from '@raly/contracts/records';
import { paths } from '@/config/paths';
import { ProfileImages } from '@/features/images/components/profile-images';
import { OnboardingPage } from '@/features/onboarding/components/onboarding-page';
import { WithMe } from '@/app/routes/with-me';

export function OnboardingRoute() {
  return (
    <WithMe>
      {(me) =>
        isOnboarded(me.user) ? (
          <Navigate to={paths.dashboard.path} replace />
        ) : (
          <OnboardingPage
            brandImage={(brand) => (
              <ProfileImages ownerType="brand" name={brand.company} profileImg={brand.profileImg} />
            )}
          />
        )
      }
    </WithMe>
  );
}
