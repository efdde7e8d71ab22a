/**
 * identity-profile's username registry (docs/api.md "Internal endpoints"),
 * which keeps usernames unique across creators and brands (spec §5). The
 * registry's unique key decides races: of two claims, one wins.
 */
import { callInternal, errorCodeOf } from '@raly/service-kit/internal';

/** Another creator or brand holds the username. */
export class UsernameTakenError extends Error {
  constructor() {
    super('username taken');
    this.name = 'UsernameTakenError';
  }
}

export interface UsernameRegistry {
  /**
   * Reserves `username` for the brand (already holding it is fine).
   * @throws UsernameTakenError; Error when identity-profile fails or cannot be reached
   */
  claim(username: string, brandId: string): Promise<void>;
  /** Frees `username` if the brand holds it. @throws Error when identity-profile fails */
  release(username: string, brandId: string): Promise<void>;
}

/**
 * @param identityUrl IDENTITY_URL
 * @param serviceToken INTERNAL_SERVICE_TOKEN
 */
export function usernameRegistry(identityUrl: string, serviceToken: string): UsernameRegistry {
  async function send(action: 'claim' | 'release', username: string, brandId: string) {
    const answer = await callInternal(identityUrl, serviceToken, `/usernames/${action}`, {
      method: 'POST',
      json: { username, ownerType: 'brand', ownerId: brandId },
    });
    if (answer.status === 409 && errorCodeOf(answer) === 'username-taken')
      throw new UsernameTakenError();
    if (answer.status < 200 || answer.status >= 300) {
      throw new Error(`identity-profile answered ${answer.status} to username ${action}`);
    }
  }
  return {
    claim: (username, brandId) => send('claim', username, brandId),
    release: (username, brandId) => send('release', username, brandId),
  };
}
