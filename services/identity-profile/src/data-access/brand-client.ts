/**
 * services/brand as the brand registration saga calls it (docs/api.md
 * "Internal endpoints"): create the brand, and delete it to undo.
 */
import type { BrandMembership, CreateBrandCommand } from '@raly/contracts/internal';
import type { AcceptInvitationCommand, InvitationPreview } from '@raly/contracts/teams';
import {
  callInternal,
  dataOf,
  errorCodeOf,
  unexpectedAnswerError,
  type ServiceTokenSource,
} from '@raly/service-kit/internal';
import { servicePath } from '@raly/service-kit/service-path';

/** services/brand refused the brand's username (another brand holds it). */
export class BrandUsernameTakenError extends Error {
  constructor() {
    super('brand username taken');
    this.name = 'BrandUsernameTakenError';
  }
}

export interface BrandClient {
  /**
   * `POST /brands`; idempotent on `creatorUserId`.
   * @returns the brand's id
   * @throws BrandUsernameTakenError; AppError `unavailable` (503, untrusted) when the service
   *   cannot be reached or answers 503 (e.g. its database is away for the moment); Error when it
   *   answers any other failure
   */
  create(command: CreateBrandCommand): Promise<string>;
  /** `DELETE /brands/:id`. @throws as {@link BrandClient.create}, but never BrandUsernameTakenError */
  delete(brandId: string): Promise<void>;
  /**
   * `POST /invitations/preview`: the invitation's brand and e-mail.
   * @throws AppError as the brand service answered (404, 409 with the invitation's reason), passed through
   */
  previewInvitation(token: string): Promise<InvitationPreview>;
  /**
   * `POST /invitations/accept`: spends the invitation and makes the user a member.
   * @returns the brand joined
   * @throws AppError as the brand service answered, passed through
   */
  acceptInvitation(command: AcceptInvitationCommand): Promise<{ brandId: string }>;
  /** `GET /brands/:id/members/:userId`. @throws AppError as the brand service answered */
  membership(brandId: string, userId: string): Promise<BrandMembership>;
}

/**
 * @param brandUrl BRAND_URL
 * @param serviceTokens this service's access tokens (kit `createServiceTokenSource`)
 */
export function createBrandClient(
  brandUrl: string,
  serviceTokens: ServiceTokenSource,
): BrandClient {
  const post = async <T>(path: string[], json: unknown, what: string): Promise<T> =>
    dataOf<T>(
      await callInternal(brandUrl, serviceTokens, servicePath(path), {
        method: 'POST',
        target: 'brand',
        json,
        unreachable: 'unavailable',
      }),
      `brand service refused ${what}`,
    );
  return {
    previewInvitation: (token) =>
      post<InvitationPreview>(['invitations', 'preview'], { token }, 'the invitation preview'),
    acceptInvitation: (command) =>
      post<{ brandId: string }>(['invitations', 'accept'], command, 'the invitation'),
    async membership(brandId, userId) {
      const answer = await callInternal(
        brandUrl,
        serviceTokens,
        servicePath(['brands', brandId, 'members', userId]),
        { method: 'GET', target: 'brand', unreachable: 'unavailable' },
      );
      return dataOf<BrandMembership>(answer, 'brand service refused the membership check');
    },
    async create(command) {
      const answer = await callInternal(brandUrl, serviceTokens, servicePath(['brands']), {
        method: 'POST',
        target: 'brand',
        json: command,
        unreachable: 'unavailable',
      });
      if (answer.status === 409 && errorCodeOf(answer) === 'username-taken')
        throw new BrandUsernameTakenError();
      const id = (answer.body as { data?: { id?: unknown } } | undefined)?.data?.id;
      if (answer.status >= 300 || typeof id !== 'string')
        throw unexpectedAnswerError(answer, 'brand service', 'POST /brands');
      return id;
    },
    async delete(brandId) {
      const answer = await callInternal(brandUrl, serviceTokens, servicePath(['brands', brandId]), {
        method: 'DELETE',
        target: 'brand',
        unreachable: 'unavailable',
      });
      if (answer.status >= 300)
        throw unexpectedAnswerError(answer, 'brand service', `DELETE /brands/${brandId}`);
    },
  };
}
