/**
 * services/brand as the offers service calls it: a brand as its member sees
 * it (`GET /brands/:id` with the member's access token, docs/api.md), for a
 * brand whose `brand.brand.v1` event has not arrived yet.
 */
import { messages } from '@raly/contracts/messages';
import { brandRecordSchema, type BrandRecord } from '@raly/contracts/records';
import { callHttp, dataOf } from '@raly/service-kit/internal';
import { serviceUrl } from '@raly/service-kit/service-path';

export interface BrandClient {
  /**
   * `GET /brands/:id` as a member of the brand.
   * @param accessToken the member's access token, forwarded unchanged
   * @throws AppError unavailable (503) when services/brand cannot be reached; its error, passed through, otherwise
   */
  brandAsMember(brandId: string, accessToken: string): Promise<BrandRecord>;
}

/** @param brandUrl BRAND_URL */
export function createBrandClient(brandUrl: string): BrandClient {
  return {
    async brandAsMember(brandId, accessToken) {
      const answer = await callHttp(serviceUrl(brandUrl, ['brands', brandId]), {
        method: 'GET',
        bearer: accessToken,
        unreachable: 'unavailable',
        target: 'brand',
      });
      return brandRecordSchema.parse(dataOf(answer, messages.genericProblem));
    },
  };
}
