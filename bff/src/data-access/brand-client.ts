/**
 * HTTP client of services/brand (docs/api.md): the public profile read and
 * the members' read and update, with the user's bearer token forwarded
 * unchanged. The brand service's errors come back unchanged.
 */
import type { BrandRecord } from '@raly/contracts/records';
import type { Config } from '../config';
import { forwardedError } from './identity-client';
import { callUpstream, dataOf, type UpstreamAnswer } from './upstream';

export interface BrandClient {
  /** GET /public/brands/:username → the public profile, or null on 404. */
  getPublicBrand(username: string): Promise<BrandRecord | null>;
  /** GET /brands/:id as a member → the brand, or null on 404. @throws AppError as the brand service answered */
  getBrand(accessToken: string, brandId: string): Promise<BrandRecord | null>;
  /** PATCH /brands/:id as a member → the updated brand. @throws AppError as the brand service answered */
  updateBrand(accessToken: string, brandId: string, form: unknown): Promise<BrandRecord>;
}

/** @param config BRAND_URL and the upstream timeout */
export function createBrandClient(config: Config): BrandClient {
  const base = config.BRAND_URL.replace(/\/$/, '');
  const timeoutMs = config.UPSTREAM_TIMEOUT_MS;
  const expectData = <T>(answer: UpstreamAnswer, fallbackMessage: string): T => {
    if (answer.status < 200 || answer.status >= 300) throw forwardedError(answer, fallbackMessage);
    return dataOf<T>(answer);
  };
  return {
    async getPublicBrand(username) {
      const answer = await callUpstream(`${base}/public/brands/${encodeURIComponent(username)}`, {
        method: 'GET',
        timeoutMs,
      });
      if (answer.status === 404) return null;
      return expectData(answer, 'brand service refused the read');
    },
    async getBrand(accessToken, brandId) {
      const answer = await callUpstream(`${base}/brands/${encodeURIComponent(brandId)}`, {
        method: 'GET',
        bearer: accessToken,
        timeoutMs,
      });
      if (answer.status === 404) return null;
      return expectData(answer, 'brand service refused the read');
    },
    async updateBrand(accessToken, brandId, form) {
      const answer = await callUpstream(`${base}/brands/${encodeURIComponent(brandId)}`, {
        method: 'PATCH',
        json: form,
        bearer: accessToken,
        timeoutMs,
      });
      return expectData(answer, 'brand service refused the update');
    },
  };
}
