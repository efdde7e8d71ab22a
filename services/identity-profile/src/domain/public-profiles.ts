/**
 * A creator's public profile (`/user/<username>`): what anyone,
 * signed in or not, may see of a creator — username, pictures, interests
 * and social handles. Never a first name, last name, e-mail or phone number
 * (spec preamble). Brand users have no username of their own, so they have
 * no public creator profile. A suspended creator's profile shows nothing of
 * them until the suspension is lifted (docs/console.md).
 */
import type { PublicCreatorProfile } from '@raly/contracts/offers';
import type { UserRecord } from '@raly/contracts/records';
import { normalizeUsername, usernameSchema } from '@raly/contracts/validation';
import type { IdentityDependencies } from './dependencies';
import { identityErrors } from './errors';

/** The public fields of a creator's record, field by field. */
export function publicCreatorOf(user: UserRecord & { username: string }): PublicCreatorProfile {
  return {
    id: user.id,
    username: user.username,
    profileImg: user.profileImg,
    coverImg: user.coverImg,
    interests: [...user.interests],
    socials: {
      x: user.socials.x,
      instagram: user.socials.instagram,
      threads: user.socials.threads,
    },
  };
}

/**
 * GET /public/users/:username.
 * @param username as typed in the URL; looked up in its stored form (trimmed, lowercased)
 * @returns the creator's public profile
 * @throws AppError not-found 'Sorry, we couldn’t find the page you’re looking for.' when no
 *   creator holds the username (also for a malformed one, which no one can hold); not-found
 *   'This creator is unavailable.' when the creator is suspended
 */
export async function getPublicCreator(
  dependencies: Pick<IdentityDependencies, 'users'>,
  username: string,
): Promise<PublicCreatorProfile> {
  const stored = normalizeUsername(username);
  if (!usernameSchema.safeParse(stored).success) throw identityErrors.creatorNotFound();
  const user = await dependencies.users.findCreatorByUsername(stored);
  if (!user?.username) throw identityErrors.creatorNotFound();
  if (user.permissions.isSuspended) throw identityErrors.creatorUnavailable();
  return publicCreatorOf({ ...user, username: user.username });
}
