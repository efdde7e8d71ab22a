/**
 * identity-profile as the brand service calls it (docs/api.md "Internal
 * endpoints"): the one API of the username registry, which identity-profile
 * owns and which keeps usernames unique (spec §5 requires uniqueness; across
 * creators and brands is our reading). The registry's key decides races: of
 * two claims, one wins.
 */
import {
  callInternal,
  errorCodeOf,
  unexpectedAnswerError,
  type ServiceTokenSource,
} from '@raly/service-kit/internal';
import { servicePath } from '@raly/service-kit/service-path';

/** Another creator or brand holds the username. */
export class UsernameTakenError extends Error {
  constructor() {
    super('username taken');
    this.name = 'UsernameTakenError';
  }
}

/** Who holds a name in the registry: a brand (its username) or a member (their handle). */
export type UsernameOwner = 'brand' | 'member';

export interface IdentityClient {
  /**
   * `POST /usernames/claim`: reserves `username` for the brand, or (`ownerType` `member`) a
   * member's handle for the user `ownerId` (already holding it is fine).
   * @throws UsernameTakenError; AppError `unavailable` (503, untrusted) when identity-profile
   *   cannot be reached or answers 503 (e.g. its database is away for the moment); Error when it
   *   answers any other failure
   */
  claimUsername(username: string, ownerId: string, ownerType?: UsernameOwner): Promise<void>;
  /**
   * `POST /usernames/release`: frees `username` if the brand holds it.
   * @throws as {@link IdentityClient.claimUsername}, but never UsernameTakenError
   */
  releaseUsername(username: string, ownerId: string, ownerType?: UsernameOwner): Promise<void>;
}

/**
 * @param identityUrl IDENTITY_URL
 * @param serviceTokens this service's access tokens (kit `createServiceTokenSource`)
 */
export function createIdentityClient(
  identityUrl: string,
  serviceTokens: ServiceTokenSource,
): IdentityClient {
  async function send(
    action: 'claim' | 'release',
    username: string,
    ownerId: string,
    ownerType: UsernameOwner = 'brand',
  ) {
    const answer = await callInternal(
      identityUrl,
      serviceTokens,
      servicePath(['usernames', action]),
      {
        method: 'POST',
        target: 'identity-profile',
        json: { username, ownerType, ownerId },
        unreachable: 'unavailable',
      },
    );
    if (answer.status === 409 && errorCodeOf(answer) === 'username-taken')
      throw new UsernameTakenError();
    if (answer.status < 200 || answer.status >= 300)
      throw unexpectedAnswerError(answer, 'identity-profile', `username ${action}`);
  }
  return {
    claimUsername: (username, ownerId, ownerType) => send('claim', username, ownerId, ownerType),
    releaseUsername: (username, ownerId, ownerType) =>
      send('release', username, ownerId, ownerType),
  };
}
