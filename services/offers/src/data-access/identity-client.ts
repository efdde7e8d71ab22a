/**
 * identity-profile as the offers service calls it: the caller's own record
 * (`GET /users/me` with the caller's access token, docs/api.md), for a
 * caller whose `identity.user.v1` event has not arrived yet, and the
 * caller's handle in their brand's team (`GET /users/me/handle`), which an
 * application's decision records.
 */
import { z } from 'zod';
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
  /**
   * `GET /users/me/handle` as the caller.
   * @param accessToken the caller's access token, forwarded unchanged
   * @returns the caller's handle in their brand's team, or null for a member without one (and a creator)
   * @throws AppError unavailable (503) when identity-profile cannot be reached; its error, passed through, otherwise
   */
  memberHandleOf(accessToken: string): Promise<string | null>;
}

const memberHandleSchema = z.object({ handle: z.string().nullable() });

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
    async memberHandleOf(accessToken) {
      const answer = await callHttp(serviceUrl(identityUrl, ['users', 'me', 'handle']), {
        method: 'GET',
        target: 'identity-profile',
        bearer: accessToken,
        unreachable: 'unavailable',
      });
      return memberHandleSchema.parse(dataOf(answer, messages.genericProblem)).handle;
    },
  };
}
