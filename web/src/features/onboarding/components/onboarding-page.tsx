/**
 * The content of /onboarding (spec §2, §4.1) once the user's record is
 * loaded (the route shows the spinner and sends onboarded users to the
 * dashboard): the brand flow (terms, brand) for brand users, otherwise the
 * creator flow (terms, interests, connects, wallet). Each shows the first
 * outstanding step with 'Next', or 'Done' on the last one, and goes to the
 * dashboard when none is left. The step follows the live record, so a step
 * finished in another tab moves this one on too.
 */
import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import type { Me } from '@raly/contracts/bff-api';
import { isBrandUser, type BrandRecord, type UserRecord } from '@raly/contracts/records';
import { messages } from '@raly/contracts/messages';
import { paths } from '@/config/paths';
import { useGetMeQuery } from '@/lib/me-api';
import { Notification } from '@/components/ui/notification';
import { PageHeading } from '@/components/ui/page-heading';
import { BrandStep } from '@/features/onboarding/components/brand-step';
import { InterestsStep } from '@/features/onboarding/components/interests-step';
import { PlaceholderStep } from '@/features/onboarding/components/placeholder-step';
import { TermsStep } from '@/features/onboarding/components/terms-step';
import { currentBrandStep, currentStep } from '@/features/onboarding/utils/steps';

/** The profile image (with its picker) of the brand step, given by the page that composes it. */
export type BrandImageSlot = (brand: BrandRecord) => ReactNode;

function BrandOnboarding({ me, brandImage }: { me: Me; brandImage?: BrandImageSlot }) {
  const current = currentBrandStep(me.user.onboarding);
  if (!current) return <Navigate to={paths.dashboard.path} replace />;
  const { step, submitLabel } = current;
  return (
    <>
      <PageHeading>Welcome to Raly</PageHeading>
      <p className="mt-2 text-slate-600">Two steps before your first offer.</p>
      <div className="mt-8">
        {step === 'terms' && <TermsStep key={step} submitLabel={submitLabel} />}
        {step === 'brand' &&
          (me.brand ? (
            <BrandStep
              key={step}
              submitLabel={submitLabel}
              brand={me.brand}
              profileImage={brandImage?.(me.brand)}
            />
          ) : (
            <Notification>{messages.genericProblem}</Notification>
          ))}
      </div>
    </>
  );
}

function CreatorOnboarding({ user }: { user: UserRecord }) {
  const current = currentStep(user.onboarding);
  if (!current) return <Navigate to={paths.dashboard.path} replace />;
  const { step, submitLabel } = current;
  return (
    <>
      <PageHeading>Welcome to Raly</PageHeading>
      <p className="mt-2 text-slate-600">A few steps before your first campaign.</p>
      <div className="mt-8">
        {step === 'terms' && <TermsStep key={step} submitLabel={submitLabel} />}
        {step === 'interests' && (
          <InterestsStep key={step} submitLabel={submitLabel} interests={user.interests} />
        )}
        {(step === 'connects' || step === 'wallet') && (
          <PlaceholderStep key={step} step={step} submitLabel={submitLabel} />
        )}
      </div>
    </>
  );
}

/**
 * The onboarding page; renders nothing until the user's record is loaded.
 * @param brandImage the brand step's profile image with its picker (optional)
 */
export function OnboardingPage({ brandImage }: { brandImage?: BrandImageSlot } = {}) {
  const { data: me } = useGetMeQuery();
  if (!me) return null;
  return (
    <section className="mx-auto max-w-2xl px-4 py-10">
      {isBrandUser(me.user) ? (
        <BrandOnboarding me={me} brandImage={brandImage} />
      ) : (
        <CreatorOnboarding user={me.user} />
      )}
    </section>
  );
}
