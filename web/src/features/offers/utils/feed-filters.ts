/**
 * The feed's filters in the page's URL (/offers?interest=AI,Gaming&platform=x&q=…&page=2),
 * so a filtered feed survives a reload and the back button. Unknown values are dropped.
 */
import { INTERESTS, type Interest } from '@raly/contracts/constants';
import {
  OFFER_PLATFORMS,
  OFFER_SEARCH_MAX_LENGTH,
  OFFERS_PAGE_MAX,
  type OfferPlatform,
} from '@raly/contracts/offers';
import { feedSearchParams, type FeedQuery } from '@/lib/offer-live';

/** Offers per page of the feed. */
export const FEED_PAGE_SIZE = 10;

const listOf = <T extends string>(value: string | null, allowed: readonly T[]): T[] =>
  (value ?? '')
    .split(',')
    .filter((entry): entry is T => (allowed as readonly string[]).includes(entry));

/** @returns the feed query the URL's search parameters ask for */
export function feedQueryOf(params: URLSearchParams): FeedQuery & { page: number } {
  const page = Number(params.get('page'));
  return {
    interest: listOf<Interest>(params.get('interest'), INTERESTS),
    platform: listOf<OfferPlatform>(params.get('platform'), OFFER_PLATFORMS),
    q: (params.get('q') ?? '').slice(0, OFFER_SEARCH_MAX_LENGTH),
    page: Number.isInteger(page) && page >= 1 && page <= OFFERS_PAGE_MAX ? page : 1,
    pageSize: FEED_PAGE_SIZE,
  };
}

/** @returns the URL search parameters of a feed query (empty filters, page 1 and the page size left out) */
export function searchParamsOf(query: FeedQuery): URLSearchParams {
  return feedSearchParams({
    ...query,
    page: query.page && query.page > 1 ? query.page : undefined,
    pageSize: undefined,
  });
}

/** @returns `list` with `value` added, or removed when it was there */
export function toggled<T>(list: readonly T[], value: T): T[] {
  return list.includes(value) ? list.filter((each) => each !== value) : [...list, value];
}

/** @returns the number of pages of `total` items */
export const pageCountOf = (total: number, pageSize: number) =>
  Math.max(1, Math.ceil(total / pageSize));
