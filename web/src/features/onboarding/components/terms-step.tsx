/**
 * Onboarding step "terms" (spec §4, §5, §9): the terms in a scrollable box
 * TERMS_BOX_HEIGHT_PX high and an agree checkbox ('You must agree to the
 * terms above'); accepting marks the step after ONBOARDING_TERMS_DELAY_MS.
 */
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { ONBOARDING_TERMS_DELAY_MS, TERMS_BOX_HEIGHT_PX } from '@raly/contracts/constants';
import { onboardingTermsSchema } from '@raly/contracts/validation';
import { CheckboxField } from '@/components/ui/checkbox-field';
import { useCompleteOnboardingStepMutation } from '@/features/onboarding/api/onboarding-api';
import { StepFrame } from '@/features/onboarding/components/step-frame';
import { useStepFailure } from '@/features/onboarding/hooks/use-step-failure';

const pause = (ms: number) => new Promise((resolve) => window.setTimeout(resolve, ms));

const terms = [
  'Raly connects creators with brands that run campaigns. By using Raly you agree to use it honestly and lawfully.',
  'Your name and e-mail are never disclosed to brands or other members. Brands see your username, your public profile and what you choose to share.',
  'You are responsible for the content you publish for a campaign and for following the rules of each social network you post on, including disclosing paid partnerships.',
  'Payments for campaigns are made to the wallet you set up on Raly. Raly may hold a payment while a campaign is disputed.',
  'We may suspend an account that breaks these terms. You may close your account at any time.',
  'These terms may change; we will tell you by e-mail before a change takes effect.',
];

export function TermsStep({ submitLabel }: { submitLabel: string }) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(onboardingTermsSchema),
    defaultValues: { agreeTerms: false },
  });
  const [completeStep] = useCompleteOnboardingStepMutation();
  const stepFailed = useStepFailure();

  const onSubmit = async () => {
    await pause(ONBOARDING_TERMS_DELAY_MS);
    await completeStep('terms').unwrap().catch(stepFailed);
  };

  return (
    <StepFrame
      title="Terms of service"
      submitLabel={submitLabel}
      busy={isSubmitting}
      onSubmit={handleSubmit(onSubmit)}
    >
      <div
        role="region"
        aria-label="Terms of service"
        tabIndex={0}
        style={{ height: TERMS_BOX_HEIGHT_PX }}
        className="space-y-3 overflow-y-auto rounded-md bg-slate-50 p-4 text-sm text-slate-700 ring-1 ring-slate-200 ring-inset focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        {terms.map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
      </div>
      <CheckboxField
        label="I agree to the terms above"
        error={errors.agreeTerms?.message}
        {...register('agreeTerms')}
      />
    </StepFrame>
  );
}
