/**
 * Which onboarding step to show (spec §4.1): the first outstanding one in
 * the order of the user's kind (creators: terms, interests, connects,
 * wallet; brand users: terms, brand); the last outstanding step's button
 * reads 'Done', the others 'Next'.
 */
import { BRAND_ONBOARDING_STEPS, CREATOR_ONBOARDING_STEPS } from '@raly/contracts/constants';

export type CreatorOnboardingStep = (typeof CREATOR_ONBOARDING_STEPS)[number];
export type CreatorOnboardingFlags = Record<CreatorOnboardingStep, boolean>;
export type BrandOnboardingStep = (typeof BRAND_ONBOARDING_STEPS)[number];
export type BrandOnboardingFlags = Record<BrandOnboardingStep, boolean>;

/** The step on screen and the label of its button; null when every step is done. */
export interface CurrentStep<Step extends string = CreatorOnboardingStep> {
  step: Step;
  submitLabel: 'Next' | 'Done';
}

/** @returns the steps of `order` whose flag is not true, in that order */
function outstandingOf<Step extends string>(
  order: readonly Step[],
  onboarding: Partial<Record<Step, boolean>>,
): Step[] {
  return order.filter((step) => onboarding[step] !== true);
}

/** @returns the first outstanding step of `order` and its button label, or null when none is outstanding */
function currentOf<Step extends string>(
  order: readonly Step[],
  onboarding: Partial<Record<Step, boolean>>,
): CurrentStep<Step> | null {
  const outstanding = outstandingOf(order, onboarding);
  const step = outstanding[0];
  if (!step) return null;
  return { step, submitLabel: outstanding.length === 1 ? 'Done' : 'Next' };
}

/** @returns the creator steps whose flag is not true, in the spec's order */
export function outstandingSteps(
  onboarding: Partial<CreatorOnboardingFlags>,
): CreatorOnboardingStep[] {
  return outstandingOf(CREATOR_ONBOARDING_STEPS, onboarding);
}

/** @returns the first outstanding creator step and its button label, or null when none is outstanding */
export function currentStep(onboarding: Partial<CreatorOnboardingFlags>): CurrentStep | null {
  return currentOf(CREATOR_ONBOARDING_STEPS, onboarding);
}

/** @returns the first outstanding brand step (terms, then brand) and its button label, or null when none is outstanding */
export function currentBrandStep(
  onboarding: Partial<BrandOnboardingFlags>,
): CurrentStep<BrandOnboardingStep> | null {
  return currentOf(BRAND_ONBOARDING_STEPS, onboarding);
}
