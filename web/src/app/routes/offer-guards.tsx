/**
 * The guards of the offers pages, on top of the root layout's
 * sign-in guard: creator pages need an onboarded creator (a brand user is
 * sent to /brand/offers, a creator still onboarding to /onboarding, as
 * /dashboard does); brand pages need a brand user (a creator is sent to
 * /offers). A spinner shows while GET /api/me loads.
 */
import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import type { Me } from '@raly/contracts/bff-api';
import { isBrandUser, isOnboarded } from '@raly/contracts/records';
import { paths } from '@/config/paths';
import { WithMe } from '@/app/routes/with-me';

/** Renders `children` for a signed-in, onboarded creator only. */
export function CreatorOnly({ children }: { children: (me: Me) => ReactNode }) {
  return (
    <WithMe>
      {(me) =>
        isBrandUser(me.user) ? (
          <Navigate to={paths.brandOffers.path} replace />
        ) : !isOnboarded(me.user) ? (
          <Navigate to={paths.onboarding.path} replace />
        ) : (
          children(me)
        )
      }
    </WithMe>
  );
}

/** Renders `children` for a brand user only. */
export function BrandOnly({ children }: { children: (me: Me) => ReactNode }) {
  return (
    <WithMe>
      {(me) => (isBrandUser(me.user) ? children(me) : <Navigate to={paths.offers.path} replace />)}
    </WithMe>
  );
}
