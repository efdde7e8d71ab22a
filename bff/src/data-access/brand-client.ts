/**
 * HTTP client of services/brand (docs/api.md): the public profile read and
 * the members' read and update, with the user's bearer token forwarded
 * unchanged, on the kit's HTTP client; the console's brand lookup and staff decisions on the
 * internal endpoints, with the BFF's own service token (`raly-bff-service`). The brand service's errors come back
 * unchanged; no answer is 503 `unavailable`.
 */
import type { BrandRecord } from '@raly/contracts/records';
import type {
  BrandFlagsCommand,
  BrandSuspension,
  BrandVerificationCommand,
  SuspensionCommand,
} from '@raly/contracts/internal';
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
   * PUT /brands/:id/verification (internal, service token): a staff decision on the badge, with
   * its reason and staff member (docs/console.md) → the brand with its badge as given.
   * @throws AppError as the brand service answered (404 unknown brand, 400)
   */
  setVerified(brandId: string, command: BrandVerificationCommand): Promise<BrandRecord>;
  /**
   * GET /brands/:id/record (internal, service token): the brand's record for the staff console
   * (docs/console.md "Contact details") → the brand, or null on 404.
   * @throws AppError as the brand service answered
   */
  getBrandForStaff(brandId: string): Promise<BrandRecord | null>;
  /**
   * GET /brands?query= (internal, service token) → at most 20 brands whose username starts with
   * `query` or whose company contains it, ignoring case (brand fields only).
   * @throws AppError as the brand service answered (400 a bad query)
   */
  searchBrands(query: string): Promise<BrandRecord[]>;
  /**
   * PUT /brands/:id/suspension (internal, service token): a staff decision (docs/console.md).
   * @returns the brand after it and its members' user ids
   * @throws AppError as the brand service answered (404 unknown brand, 400)
   */
  decideSuspension(brandId: string, command: SuspensionCommand): Promise<BrandSuspension>;
  /**
   * PUT /brands/:id/flags (internal): an administrator's flags, with the staff member.
   * @throws AppError as the brand service answered
   */
  setFlags(brandId: string, command: BrandFlagsCommand): Promise<BrandRecord>;
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
  /** `PUT /brands/:id/<decision>` (internal, service token) → the answer's `data`. */
  const staffDecision = async <T>(brandId: string, decision: string, json: unknown): Promise<T> =>
    dataOf<T>(
      await callInternal(
        config.BRAND_URL,
        serviceTokens,
        servicePath([...brandPath(brandId), decision]),
        {
          method: 'PUT',
          json,
          timeoutMs: config.UPSTREAM_TIMEOUT_MS,
          target: 'brand',
          unreachable: 'unavailable',
        },
      ),
      `brand service refused the ${decision}`,
    );
  return {
    getPublicBrand: (username) => read(['public', 'brands', username]),
    getBrand: (accessToken, brandId) => read(brandPath(brandId), accessToken),
    updateBrand: async (accessToken, brandId, form) =>
      dataOf<BrandRecord>(
        await call(brandPath(brandId), { method: 'PATCH', json: form, bearer: accessToken }),
        'brand service refused the update',
      ),
    setVerified: (brandId, command) => staffDecision<BrandRecord>(brandId, 'verification', command),
    decideSuspension: (brandId, command) =>
      staffDecision<BrandSuspension>(brandId, 'suspension', command),
    setFlags: (brandId, command) => staffDecision<BrandRecord>(brandId, 'flags', command),
    async getBrandForStaff(brandId) {
      const answer = await callInternal(
        config.BRAND_URL,
        serviceTokens,
        servicePath([...brandPath(brandId), 'record']),
        {
          method: 'GET',
          timeoutMs: config.UPSTREAM_TIMEOUT_MS,
          target: 'brand',
          unreachable: 'unavailable',
        },
      );
      if (answer.status === 404) return null;
      return dataOf<BrandRecord>(answer, 'brand service refused the read');
    },
    searchBrands: async (query) =>
      dataOf<BrandRecord[]>(
        await callInternal(config.BRAND_URL, serviceTokens, servicePath(['brands'], { query }), {
          method: 'GET',
          timeoutMs: config.UPSTREAM_TIMEOUT_MS,
          target: 'brand',
          unreachable: 'unavailable',
        }),
        'brand service refused the search',
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
