/**
 * Which creator onboarding step to show (spec §4): the first outstanding one
 * in the order terms, interests, connects, wallet; the last outstanding
 * step's button reads 'Done', the others 'Next'.
 */
import { CREATOR_ONBOARDING_STEPS } from '@raly/contracts/constants';

export type CreatorOnboardingStep = (typeof CREATOR_ONBOARDING_STEPS)[number];
export type CreatorOnboardingFlags = Record<CreatorOnboardingStep, boolean>;

/** @returns the steps whose flag is not true, in the spec's order */
export function outstandingSteps(
  onboarding: Partial<CreatorOnboardingFlags>,
): CreatorOnboardingStep[] {
  return CREATOR_ONBOARDING_STEPS.filter((step) => onboarding[step] !== true);
}

/** The step on screen and the label of its button; null when every step is done. */
export interface CurrentStep {
  step: CreatorOnboardingStep;
  submitLabel: 'Next' | 'Done';
}

/** @returns the first outstanding step and its button label, or null when none is outstanding */
export function currentStep(onboarding: Partial<CreatorOnboardingFlags>): CurrentStep | null {
  const outstanding = outstandingSteps(onboarding);
  const step = outstanding[0];
  if (!step) return null;
  return { step, submitLabel: outstanding.length === 1 ? 'Done' : 'Next' };
}
