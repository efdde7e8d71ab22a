/**
 * /dashboard (spec §2): requires login (root layout guard). On entry it
 * checks that the user is onboarded (isOnboarded of the `me` record) and
 * sends a user who is not to /onboarding; a spinner shows while the record
 * loads. The dashboard itself is a placeholder (spec §1).
 */
import { Navigate } from 'react-router-dom';
import { isOnboarded } from '@raly/contracts/records';
import { paths } from '@/config/paths';
import { DashboardPage } from '@/features/dashboard/components/dashboard-page';
import { WithMe } from '@/app/routes/with-me';

export function DashboardRoute() {
  return (
    <WithMe>
      {(me) =>
        isOnboarded(me.user) ? (
          <DashboardPage me={me} />
        ) : (
          <Navigate to={paths.onboarding.path} replace />
        )
      }
    </WithMe>
  );
}
