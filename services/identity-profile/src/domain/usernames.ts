/**
 * The one registry of usernames (spec §5 requires uniqueness; across
 * creators and brands is our reading), owned here. Every username change, a creator's or a brand's, is
 * the same operation on it: claim the new username → save the record →
 * release the old one. A creator's (and a new brand's, at registration) runs
 * in the transaction that writes the user (the repository applies the
 * {@link usernameChange} decided here); services/brand runs it over
 * `POST /usernames/claim` and `/usernames/release` (docs/api.md "Internal
 * endpoints") around its own save. The registry's primary key decides
 * races: of two claims exactly one wins.
 */
import { usernameClaimSchema } from '@raly/contracts/internal';
import { normalizeUsername, usernameSchema } from '@raly/contracts/validation';
import {
  UsernameHeldError,
  type UsernameChange,
  type UsernameOwnerType,
} from '../data-access/username-registry';
import type { IdentityDependencies } from './dependencies';
import { identityErrors } from './errors';

/**
 * checkUsernameExists (spec §7): a hint for forms, the claim decides.
 * @returns true when a creator or a brand holds the username (case-insensitively)
 */
export async function usernameExists(
  dependencies: Pick<IdentityDependencies, 'usernames'>,
  username: string,
): Promise<boolean> {
  return dependencies.usernames.isHeld(normalizeUsername(username));
}

/**
 * The early answer before a registration's slow steps (Keycloak); the claim
 * in the user's transaction still decides a race.
 * @throws AppError username-taken 'Username already exists. Try another.'
 */
export async function assertUsernameFree(
  dependencies: Pick<IdentityDependencies, 'usernames'>,
  username: string,
): Promise<void> {
  if (await usernameExists(dependencies, username)) throw identityErrors.usernameTaken();
}

/**
 * The registry change of an owner's username going from `from` to `to`
 * (both normalised; null: none): claim `to`, release `from`.
 */
export function usernameChange(
  ownerType: UsernameOwnerType,
  ownerId: string,
  from: string | null,
  to: string | null,
): UsernameChange {
  return {
    ...(to !== null && to !== from ? { claim: { username: to, ownerType, ownerId } } : {}),
    ...(from !== null && to !== from ? { release: { username: from, ownerType, ownerId } } : {}),
  };
}

/**
 * `POST /usernames/claim`.
 * @param input `usernameClaimSchema`, unparsed
 * @returns the stored (normalised) username
 * @throws AppError invalid-argument (username rules of spec §5), username-taken 'Username already exists. Try another.'
 */
export async function claimUsername(
  dependencies: IdentityDependencies,
  input: unknown,
): Promise<{ username: string }> {
  const claim = usernameClaimSchema.parse(input);
  const username = normalizeUsername(usernameSchema.parse(claim.username));
  try {
    await dependencies.usernames.claim({ ...claim, username });
  } catch (error) {
    if (error instanceof UsernameHeldError) throw identityErrors.usernameTaken(error);
    throw error;
  }
  return { username };
}

/**
 * `POST /usernames/release`: frees the username if the owner holds it.
 * @param input `usernameClaimSchema`, unparsed
 */
export async function releaseUsername(
  dependencies: IdentityDependencies,
  input: unknown,
): Promise<void> {
  const claim = usernameClaimSchema.parse(input);
  await dependencies.usernames.release({ ...claim, username: normalizeUsername(claim.username) });
}
