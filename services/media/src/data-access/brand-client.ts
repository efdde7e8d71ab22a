/** services/brand as media calls it (docs/api.md "Internal endpoints"): the membership check. */
import { brandMembershipSchema } from '@raly/contracts/internal';
import {
  callInternal,
  unexpectedAnswerError,
  type ServiceTokenSource,
} from '@raly/service-kit/internal';
import { servicePath } from '@raly/service-kit/service-path';

export interface BrandClient {
  /**
   * `GET /brands/:id/members/:userId`.
   * @returns true when the user is a member of the brand; false also when the brand does not exist
   * @throws AppError `unavailable` (503, untrusted) when services/brand cannot be reached or
   *   answers 503 (e.g. its database is away for the moment); Error when it answers any other failure
   */
  isMember(brandId: string, userId: string): Promise<boolean>;
}

/**
 * @param brandUrl BRAND_URL
 * @param serviceTokens this service's access tokens (kit `createServiceTokenSource`)
 */
export function createBrandClient(
  brandUrl: string,
  serviceTokens: ServiceTokenSource,
): BrandClient {
  return {
    async isMember(brandId, userId) {
      const answer = await callInternal(
        brandUrl,
        serviceTokens,
        servicePath(['brands', brandId, 'members', userId]),
        { method: 'GET', target: 'brand', unreachable: 'unavailable' },
      );
      // No such brand: nobody is a member of it.
      if (answer.status === 404) return false;
      if (answer.status !== 200)
        throw unexpectedAnswerError(answer, 'brand service', 'the membership check');
      return brandMembershipSchema.parse((answer.body as { data?: unknown }).data).isMember;
    },
  };
}
