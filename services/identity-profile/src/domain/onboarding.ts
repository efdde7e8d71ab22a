/**
 * Onboarding flags, interests and the last sign-in of the caller's own
 * record (spec §4 "Onboarding", §7 updateOnboardingStatus, updateInterests).
 * Every change is saved with its `identity.user.updated` snapshot, so open
 * tabs follow it live.
 */
import type { UserRecord } from '@raly/contracts/records';
import {
  interestsSchema,
  onboardingStepSchema,
  type OnboardingStep,
} from '@raly/contracts/validation';
import { z } from 'zod';
import type { UserChanges } from '../data-access/user-repository';
import type { IdentityDependencies } from './dependencies';
import { identityErrors } from './errors';
import { getOwnUser, interestChanges, saveChanges } from './users';

/** Body of `PATCH /users/me/onboarding`: flags are only ever set, never cleared (spec §4). */
const onboardingStatusSchema = z
  .object({ step: onboardingStepSchema, value: z.literal(true) })
  .strict();

/** Body of `PUT /users/me/interests`. */
const interestsUpdateSchema = z.object({ interests: interestsSchema }).strict();

const flagColumn = {
  terms: 'onboardingTerms',
  interests: 'onboardingInterests',
  connects: 'onboardingConnects',
  wallet: 'onboardingWallet',
  brand: 'onboardingBrand',
} as const satisfies Record<OnboardingStep, keyof UserChanges>;

/**
 * updateOnboardingStatus(step, true): sets one flag of the caller's kind
 * (creator: terms, interests, connects, wallet; brand user: terms, brand).
 * @param input `{ step, value: true }`, unparsed
 * @returns the record after the change (unchanged, same version, when the flag was already true)
 * @throws AppError invalid-argument (unknown step, a step of the other kind, value not true),
 *   not-found, internal
 */
export async function completeOnboardingStep(
  dependencies: IdentityDependencies,
  userId: string,
  input: unknown,
): Promise<UserRecord> {
  const { step } = onboardingStatusSchema.parse(input);
  const current = await getOwnUser(dependencies, userId);
  const flags = current.onboarding as Partial<Record<OnboardingStep, boolean>>;
  if (!(step in flags)) throw identityErrors.onboardingStepInvalid(step);
  if (flags[step] === true) return current;
  return saveChanges(dependencies, userId, { [flagColumn[step]]: true });
}

/**
 * updateInterests(list) for a creator; also sets the interests flag (spec §4).
 * @param input `{ interests }` (at least one, from the spec's list), unparsed
 * @returns the record after the change
 * @throws AppError invalid-argument ('You must select at least one interest', a brand user), not-found, internal
 */
export async function updateInterests(
  dependencies: IdentityDependencies,
  userId: string,
  input: unknown,
): Promise<UserRecord> {
  const { interests } = interestsUpdateSchema.parse(input);
  const current = await getOwnUser(dependencies, userId);
  if (current.brand !== null) throw identityErrors.brandUserHasNoInterests();
  const changes = interestChanges(current, interests);
  if (Object.keys(changes).length === 0) return current;
  return saveChanges(dependencies, userId, changes);
}

/**
 * Records a successful sign-in: `lastLogin` becomes now (spec §3).
 * @returns the record after the change
 * @throws AppError not-found, internal
 */
export async function recordLogin(
  dependencies: IdentityDependencies,
  userId: string,
  now = new Date(),
): Promise<UserRecord> {
  return saveChanges(dependencies, userId, { lastLogin: now });
}
