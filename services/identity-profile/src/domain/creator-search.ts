/**
 * The staff console's creator lookup (docs/console.md), asked by the BFF: creators by the start of
 * their username or by their whole e-mail address. The answer carries the public profile and the
 * permission flags only; no name, e-mail or phone number leaves (staff see contact details only
 * through a contact view, ./contact-views.ts, each recorded in the audit log).
 */
import {
  consoleCreatorOf,
  creatorSearchLimit,
  creatorSearchQuerySchema,
  type ConsoleCreator,
} from '@raly/contracts/internal';
import type { IdentityDependencies } from './dependencies';

/**
 * `GET /creators?query=` (internal, the BFF only).
 * @param input the query string (`creatorSearchQuerySchema`: `query`, 3–100 characters after
 *   trimming, given once), unparsed
 * @returns at most 20 creators by username
 * @throws ZodError → 400 invalid-argument (no, short, long or repeated query)
 */
export async function searchCreators(
  dependencies: Pick<IdentityDependencies, 'users'>,
  input: unknown,
): Promise<ConsoleCreator[]> {
  const { query } = creatorSearchQuerySchema.parse(input);
  const creators = await dependencies.users.searchCreators(query, creatorSearchLimit);
  return creators.map(consoleCreatorOf);
}
