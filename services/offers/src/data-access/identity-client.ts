/**
 * identity-profile as the offers service calls it: the caller's own record
 * (`GET /users/me` with the caller's access token, docs/api.md), for a
 * caller whose `identity.user.v1` event has not arrived yet.
 */
import { messages } from '@raly/contracts/messages';
import { userRecordSchema, type UserRecord } from '@raly/contracts/records';
import { callHttp, dataOf } from '@raly/service-kit/internal';
import { serviceUrl } from '@raly/service-kit/service-path';

export interface IdentityClient {
  /**
   * `GET /users/me` as the caller.
   * @param accessToken the caller's access token, forwarded unchanged
   * @returns the caller's whole user record (the caller reads only the public fields of it)
   * @throws AppError unavailable (503) when identity-profile cannot be reached; its error, passed through, otherwise
   */
  ownUser(accessToken: string): Promise<UserRecord>;
}

/** @param identityUrl IDENTITY_URL */
export function createIdentityClient(identityUrl: string): IdentityClient {
  return {
    async ownUser(accessToken) {
      const answer = await callHttp(serviceUrl(identityUrl, ['users', 'me']), {
        method: 'GET',
        target: 'identity-profile',
        bearer: accessToken,
        unreachable: 'unavailable',
      });
      return userRecordSchema.parse(dataOf(answer, messages.genericProblem));
    },
  };
}
