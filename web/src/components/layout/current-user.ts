/** How the header names the signed-in user (spec §2: the mobile menu shows the username and e-mail). */
import { isBrandUser, type UserRecord } from '@raly/contracts/records';

/**
 * @returns the name to show for the user: a creator's username; a brand
 *   user (who has no username in the UI) by first and last name; the
 *   e-mail when neither is set yet
 */
export function displayNameOf(
  user: Pick<UserRecord, 'username' | 'firstName' | 'lastName' | 'email' | 'brand'>,
): string {
  const fullName = `${user.firstName} ${user.lastName}`.trim();
  if (isBrandUser(user)) return fullName || user.email;
  return user.username || fullName || user.email;
}
