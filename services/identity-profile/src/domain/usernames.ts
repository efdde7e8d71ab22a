/**
 * The username registry as other services use it (docs/api.md "Internal
 * endpoints"): services/brand claims a brand's new username before saving
 * it and releases the old one after. Usernames are unique across creators
 * and brands (spec §5); of two racing claims exactly one wins.
 */
import { usernameClaimSchema } from '@raly/contracts/internal';
import { usernameSchema } from '@raly/contracts/validation';
import { UsernameHeldError } from '../data-access/username-registry';
import type { IdentityDependencies } from './dependencies';
import { identityErrors } from './errors';
import { normalizeUsername } from './uniqueness';

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
    await dependencies.usernames.claim(username, claim.ownerType, claim.ownerId);
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
  await dependencies.usernames.release(
    normalizeUsername(claim.username),
    claim.ownerType,
    claim.ownerId,
  );
}
