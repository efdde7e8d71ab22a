/**
 * HTTP client of services/offers (docs/api.md "offers"): offers,
 * applications and a brand's public open offers, with the user's bearer
 * token forwarded unchanged, on the kit's HTTP client. The offers service's
 * errors come back unchanged (status, code, message, fields); no answer is
 * 503 `unavailable`.
 */
import type {
  ApplicationRecord,
  BrandOffer,
  OfferRecord,
  OffersQuery,
  Page,
} from '@raly/contracts/offers';
import { callHttp, dataOf, type HttpCallOptions } from '@raly/service-kit/internal';
import { serviceUrl } from '@raly/service-kit/service-path';
import type { Config } from '../config';

/** What a creator or a brand member does to an application (`POST /applications/:id/<decision>`). */
export type ApplicationDecision = 'withdraw' | 'accept' | 'decline';
/** Every decision, one route each (`POST /api/applications/:id/<decision>`). */
export const APPLICATION_DECISIONS: readonly ApplicationDecision[] = [
  'withdraw',
  'accept',
  'decline',
];

/** Every method throws AppError as the offers service answered (its status and message). */
export interface OffersClient {
  /** POST /offers → the new offer (a draft, or open when `open` is true). */
  createOffer(accessToken: string, form: unknown): Promise<OfferRecord>;
  /** PATCH /offers/:id → the updated offer. */
  updateOffer(accessToken: string, offerId: string, changes: unknown): Promise<OfferRecord>;
  /** POST /offers/:id/open → the open offer. */
  openOffer(accessToken: string, offerId: string): Promise<OfferRecord>;
  /** POST /offers/:id/close → the closed offer. */
  closeOffer(accessToken: string, offerId: string): Promise<OfferRecord>;
  /** GET /offers?… → one page of open offers, the caller's interests first. */
  listOffers(accessToken: string, query: OffersQuery): Promise<Page<OfferRecord>>;
  /** GET /offers/:id → the offer (open to anyone signed in; drafts to its brand's members). */
  getOffer(accessToken: string, offerId: string): Promise<OfferRecord>;
  /** GET /brands/:brandId/offers → every offer of the brand with its applications by status (members). */
  listBrandOffers(accessToken: string, brandId: string): Promise<BrandOffer[]>;
  /** GET /offers/:id/applications → the offer's applications (its brand's members). */
  listApplications(accessToken: string, offerId: string): Promise<ApplicationRecord[]>;
  /** POST /offers/:id/applications → the new application. */
  apply(accessToken: string, offerId: string, form: unknown): Promise<ApplicationRecord>;
  /** GET /applications/mine → the caller's own applications. */
  listMyApplications(accessToken: string): Promise<ApplicationRecord[]>;
  /** POST /applications/:id/withdraw|accept|decline → the application after the decision. */
  decideApplication(
    accessToken: string,
    applicationId: string,
    decision: ApplicationDecision,
  ): Promise<ApplicationRecord>;
  /** GET /public/brands/:brandId/offers (no token) → the brand's open offers. */
  listPublicBrandOffers(brandId: string): Promise<OfferRecord[]>;
}

/** `OffersQuery` as the offers service's query parameters (lists joined with commas). */
export function offersQueryOf(query: OffersQuery): URLSearchParams {
  const search = new URLSearchParams();
  if (query.interest?.length) search.set('interest', query.interest.join(','));
  if (query.platform?.length) search.set('platform', query.platform.join(','));
  if (query.q) search.set('q', query.q);
  search.set('page', String(query.page));
  search.set('pageSize', String(query.pageSize));
  return search;
}

/** @param config OFFERS_URL and the upstream timeout */
export function createOffersClient(config: Config): OffersClient {
  /** One call whose 2xx answer's `data` is the result. */
  const send = async <T>(
    method: HttpCallOptions['method'],
    path: string[],
    request: Pick<HttpCallOptions, 'json' | 'bearer'>,
    query?: URLSearchParams,
  ): Promise<T> =>
    dataOf<T>(
      await callHttp(serviceUrl(config.OFFERS_URL, path, query), {
        method,
        ...request,
        timeoutMs: config.UPSTREAM_TIMEOUT_MS,
        target: 'offers',
        unreachable: 'unavailable',
      }),
      'offers service refused the request',
    );
  return {
    createOffer: (bearer, form) => send('POST', ['offers'], { json: form ?? {}, bearer }),
    updateOffer: (bearer, offerId, changes) =>
      send('PATCH', ['offers', offerId], { json: changes ?? {}, bearer }),
    openOffer: (bearer, offerId) => send('POST', ['offers', offerId, 'open'], { bearer }),
    closeOffer: (bearer, offerId) => send('POST', ['offers', offerId, 'close'], { bearer }),
    listOffers: (bearer, query) => send('GET', ['offers'], { bearer }, offersQueryOf(query)),
    getOffer: (bearer, offerId) => send('GET', ['offers', offerId], { bearer }),
    listBrandOffers: (bearer, brandId) => send('GET', ['brands', brandId, 'offers'], { bearer }),
    listApplications: (bearer, offerId) =>
      send('GET', ['offers', offerId, 'applications'], { bearer }),
    apply: (bearer, offerId, form) =>
      send('POST', ['offers', offerId, 'applications'], { json: form ?? {}, bearer }),
    listMyApplications: (bearer) => send('GET', ['applications', 'mine'], { bearer }),
    decideApplication: (bearer, applicationId, decision) =>
      send('POST', ['applications', applicationId, decision], { bearer }),
    listPublicBrandOffers: (brandId) => send('GET', ['public', 'brands', brandId, 'offers'], {}),
  };
}
