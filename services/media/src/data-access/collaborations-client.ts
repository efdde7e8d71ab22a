/**
 * services/collaborations as media calls it, always with the caller's own
 * access token (its user endpoints, docs/api.md): the collaboration as the
 * caller may read it, and whether an image is one of its submissions'.
 * Collaborations answers 404 to anyone who is not a party, so media learns
 * nothing about collaborations its caller is not in.
 */
import {
  collaborationRecordSchema,
  type CollaborationRecord,
} from '@raly/contracts/collaborations';
import { messages } from '@raly/contracts/messages';
import { callHttp, dataOf } from '@raly/service-kit/internal';
import { serviceUrl } from '@raly/service-kit/service-path';

export interface CollaborationsClient {
  /**
   * `GET /collaborations/:id` as the caller.
   * @returns the collaboration, or null when it does not exist or the caller is not a party
   * @throws AppError unavailable (503) when collaborations cannot be reached; its other errors, passed through
   */
  collaborationOf(
    collaborationId: string,
    accessToken: string,
  ): Promise<CollaborationRecord | null>;
  /**
   * `GET /collaborations/:id/images/:imageId` as the caller.
   * @returns true when the caller is a party and the image was handed in with a submission
   * @throws AppError unavailable (503) when collaborations cannot be reached; its other errors, passed through
   */
  isAttached(collaborationId: string, imageId: string, accessToken: string): Promise<boolean>;
}

/** @param collaborationsUrl COLLABORATIONS_URL */
export function createCollaborationsClient(collaborationsUrl: string): CollaborationsClient {
  const get = (segments: string[], accessToken: string) =>
    callHttp(serviceUrl(collaborationsUrl, segments), {
      method: 'GET',
      target: 'collaborations',
      bearer: accessToken,
      unreachable: 'unavailable',
    });
  return {
    async collaborationOf(collaborationId, accessToken) {
      const answer = await get(['collaborations', collaborationId], accessToken);
      if (answer.status === 404) return null;
      return collaborationRecordSchema.parse(dataOf(answer, messages.genericProblem));
    },
    async isAttached(collaborationId, imageId, accessToken) {
      const answer = await get(['collaborations', collaborationId, 'images', imageId], accessToken);
      if (answer.status === 404) return false;
      dataOf(answer, messages.genericProblem);
      return true;
    },
  };
}
