/**
 * The content of /onboarding (spec §2, §4) once the user's record is loaded
 * (the route shows the spinner and sends onboarded users to the dashboard):
 * the brand onboarding placeholder for brand users, otherwise the creator
 * flow, which shows the first outstanding step and goes to the dashboard
 * when none is left. The step follows the live record, so a step finished in
 * another tab moves this one on too.
 */
import { Navigate } from 'react-router-dom';
import { isBrandUser, type UserRecord } from '@raly/contracts/records';
import { paths } from '@/config/paths';
import { useGetMeQuery } from '@/lib/me-api';
import { PageHeading } from '@/components/ui/page-heading';
import { InterestsStep } from '@/features/onboarding/components/interests-step';
import { PlaceholderStep } from '@/features/onboarding/components/placeholder-step';
import { TermsStep } from '@/features/onboarding/components/terms-step';
import { currentStep } from '@/features/onboarding/utils/steps';

function BrandOnboarding() {
  return (
    <>
      <PageHeading>Welcome to Raly</PageHeading>
      <p className="mt-4 text-slate-600">Brand onboarding is coming soon.</p>
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

/** The onboarding page; renders nothing until the user's record is loaded. */
export function OnboardingPage() {
  const { data: me } = useGetMeQuery();
  if (!me) return null;
  return (
    <section className="mx-auto max-w-2xl px-4 py-10">
      {isBrandUser(me.user) ? <BrandOnboarding /> : <CreatorOnboarding user={me.user} />}
    </section>
  );
}
