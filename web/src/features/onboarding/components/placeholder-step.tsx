/** Onboarding steps "connects" and "wallet" (spec §1, §4): placeholder text; the button marks the step. */
import { useState, type FormEvent } from 'react';
import { useCompleteOnboardingStepMutation } from '@/features/onboarding/api/onboarding-api';
import { StepFrame } from '@/features/onboarding/components/step-frame';
import { useStepFailure } from '@/features/onboarding/hooks/use-step-failure';

const content = {
  connects: {
    title: 'Connect your socials',
    text: 'Connecting your social accounts is coming soon.',
  },
  wallet: { title: 'Create your wallet', text: 'Creating your wallet is coming soon.' },
} as const;

export function PlaceholderStep({
  step,
  submitLabel,
}: {
  step: keyof typeof content;
  submitLabel: string;
}) {
  const [completeStep, { isLoading }] = useCompleteOnboardingStepMutation();
  const stepFailed = useStepFailure();
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    await completeStep(step).unwrap().catch(stepFailed);
    setBusy(false);
  };

  return (
    <StepFrame
      title={content[step].title}
      submitLabel={submitLabel}
      busy={busy || isLoading}
      onSubmit={onSubmit}
    >
      <p className="text-sm text-slate-600">{content[step].text}</p>
    </StepFrame>
  );
}
