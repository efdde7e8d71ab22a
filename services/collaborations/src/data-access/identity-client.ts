/**
 * identity-profile as the collaborations service calls it: the caller's own
 * record (`GET /users/me` with the caller's access token, docs/api.md), for
 * the brand a brand-side caller acts for. The service keeps no copy of users.
 */
import { messages } from '@raly/contracts/messages';
import { userRecordSchema } from '@raly/contracts/records';
import { callHttp, dataOf } from '@raly/service-kit/internal';
import { serviceUrl } from '@raly/service-kit/service-path';

export interface IdentityClient {
  /**
   * The brand the caller is a member of, from `GET /users/me` as the caller.
   * @param accessToken the caller's access token, forwarded unchanged
   * @returns the brand's id, or null for a creator
   * @throws AppError unavailable (503) when identity-profile cannot be reached; its error, passed through, otherwise
   */
  brandOf(accessToken: string): Promise<string | null>;
}

/** @param identityUrl IDENTITY_URL */
export function createIdentityClient(identityUrl: string): IdentityClient {
  return {
    async brandOf(accessToken) {
      const answer = await callHttp(serviceUrl(identityUrl, ['users', 'me']), {
        method: 'GET',
        target: 'identity-profile',
        bearer: accessToken,
        unreachable: 'unavailable',
      });
      return userRecordSchema.parse(dataOf(answer, messages.genericProblem)).brand?.id ?? null;
    },
  };
}
