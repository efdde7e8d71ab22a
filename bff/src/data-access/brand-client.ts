/**
 * HTTP client of services/brand (docs/api.md): the public profile read and
 * the members' read and update, with the user's bearer token forwarded
 * unchanged, on the kit's HTTP client; staff decisions from the console on the internal
 * endpoint, with the BFF's own service token (`raly-bff-service`). The brand service's errors come back
 * unchanged; no answer is 503 `unavailable`.
 */
import type { BrandRecord } from '@raly/contracts/records';
import {
  callHttp,
  callInternal,
  dataOf,
  serviceTokenSourceOf,
  type HttpCallOptions,
} from '@raly/service-kit/internal';
import { servicePath, serviceUrl } from '@raly/service-kit/service-path';
import type { Config } from '../config';

export interface BrandClient {
  /** GET /public/brands/:username → the public profile, or null on 404. */
  getPublicBrand(username: string): Promise<BrandRecord | null>;
  /** GET /brands/:id as a member → the brand, or null on 404. @throws AppError as the brand service answered */
  getBrand(accessToken: string, brandId: string): Promise<BrandRecord | null>;
  /** PATCH /brands/:id as a member → the updated brand. @throws AppError as the brand service answered */
  updateBrand(accessToken: string, brandId: string, form: unknown): Promise<BrandRecord>;
  /**
   * PUT /brands/:id/verification (internal, service token) → the brand with its badge as given.
   * @throws AppError as the brand service answered (404 unknown brand)
   */
  setVerified(brandId: string, isVerified: boolean): Promise<BrandRecord>;
  /**
   * The team routes of services/brand as the member (docs/api.md "Teams"): `GET team`,
   * `GET|POST invitations`, `DELETE invitations/:id`, `PUT members/me/handle`,
   * `PATCH|DELETE members/:userId` under `/brands/:brandId/`.
   * @returns the answer's `data`
   * @throws AppError as the brand service answered
   */
  team<T>(
    accessToken: string,
    brandId: string,
    method: HttpCallOptions['method'],
    path: string[],
    body?: unknown,
  ): Promise<T>;
}

/** @param config BRAND_URL, Keycloak and the BFF's service client, and the upstream timeout */
export function createBrandClient(config: Config): BrandClient {
  const serviceTokens = serviceTokenSourceOf(config);
  const call = (path: string[], request: Pick<HttpCallOptions, 'method' | 'json' | 'bearer'>) =>
    callHttp(serviceUrl(config.BRAND_URL, path), {
      ...request,
      timeoutMs: config.UPSTREAM_TIMEOUT_MS,
      target: 'brand',
      unreachable: 'unavailable',
    });
  /** A read: the 2xx answer's `data`, or null on 404. */
  const read = async (path: string[], bearer?: string): Promise<BrandRecord | null> => {
    const answer = await call(path, { method: 'GET', bearer });
    if (answer.status === 404) return null;
    return dataOf<BrandRecord>(answer, 'brand service refused the read');
  };
  const brandPath = (brandId: string) => ['brands', brandId];
  return {
    getPublicBrand: (username) => read(['public', 'brands', username]),
    getBrand: (accessToken, brandId) => read(brandPath(brandId), accessToken),
    updateBrand: async (accessToken, brandId, form) =>
      dataOf<BrandRecord>(
        await call(brandPath(brandId), { method: 'PATCH', json: form, bearer: accessToken }),
        'brand service refused the update',
      ),
    setVerified: async (brandId, isVerified) =>
      dataOf<BrandRecord>(
        await callInternal(
          config.BRAND_URL,
          serviceTokens,
          servicePath(['brands', brandId, 'verification']),
          {
            method: 'PUT',
            json: { isVerified },
            timeoutMs: config.UPSTREAM_TIMEOUT_MS,
            target: 'brand',
            unreachable: 'unavailable',
          },
        ),
        'brand service refused the verification',
      ),
    team: async (accessToken, brandId, method, path, body) =>
      dataOf(
        await call([...brandPath(brandId), ...path], {
          method,
          bearer: accessToken,
          ...(body === undefined ? {} : { json: body }),
        }),
        'brand service refused the team change',
      ),
  };
}
