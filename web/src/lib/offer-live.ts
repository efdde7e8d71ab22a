/**
 * Pure merge rules for the live offers and applications (docs/api.md
 * socket.io events `offer.updated` and `application.updated`): each record
 * carries its `version` and the higher one wins, like the `me` records
 * (lib/live-updates). The RTK Query caches of lib/offers-api apply pushes
 * and command answers through these functions only.
 */
import type {
  ApplicationCounts,
  ApplicationRecord,
  ApplicationStatus,
  OfferRecord,
  OffersQuery,
  Page,
} from '@raly/contracts/offers';
import { APPLICATION_STATUSES } from '@raly/contracts/offers';
import { isNewer } from '@/lib/live-updates';

/** The feed's query as the web app sends it: every field optional (the BFF fills the defaults). */
export type FeedQuery = Partial<OffersQuery>;

/**
 * @returns the search parameters of a feed query (GET /api/offers and the
 *   feed page's URL): lists joined with commas, empty values left out
 */
export function feedSearchParams(query: FeedQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.interest?.length) params.set('interest', query.interest.join(','));
  if (query.platform?.length) params.set('platform', query.platform.join(','));
  if (query.q?.trim()) params.set('q', query.q.trim());
  if (query.page) params.set('page', String(query.page));
  if (query.pageSize) params.set('pageSize', String(query.pageSize));
  return params;
}

/**
 * Replaces the record with the same id when `incoming` is newer, or adds it.
 * @param where 'first' puts a new record at the top (a live arrival), 'last' at the end
 * @returns `list` itself when nothing changed, else a new list
 */
export function upsertNewer<T extends { id: string; version: number }>(
  list: readonly T[],
  incoming: T,
  where: 'first' | 'last' = 'first',
): T[] {
  const index = list.findIndex((item) => item.id === incoming.id);
  if (index === -1) return where === 'first' ? [incoming, ...list] : [...list, incoming];
  if (!isNewer(list[index], incoming)) return list as T[];
  const copy = [...list];
  copy[index] = incoming;
  return copy;
}

/**
 * Whether an open offer belongs in the feed of `query`: any of its interests,
 * any of its platforms, and the search text in its title, brief or brand's
 * company (case-insensitive), as GET /api/offers filters.
 */
export function offerMatchesQuery(offer: OfferRecord, query: FeedQuery): boolean {
  if (offer.status !== 'open') return false;
  if (query.interest?.length && !offer.interests.some((each) => query.interest!.includes(each)))
    return false;
  if (query.platform?.length && !offer.platforms.some((each) => query.platform!.includes(each)))
    return false;
  const text = query.q?.trim().toLowerCase();
  if (!text) return true;
  return [offer.title, offer.brief, offer.brand.company].some((field) =>
    field.toLowerCase().includes(text),
  );
}

/**
 * Applies an `offer.updated` push to one cached page of the feed: a known
 * offer is replaced (newer version) or, once no longer open, removed; a new
 * open offer matching the query goes to the top of the first page.
 * @returns `page` itself when the push changes nothing, else a new page
 */
export function applyOfferToFeed(
  page: Page<OfferRecord>,
  offer: OfferRecord,
  query: FeedQuery,
): Page<OfferRecord> {
  const index = page.items.findIndex((item) => item.id === offer.id);
  if (index !== -1) {
    if (!isNewer(page.items[index], offer)) return page;
    if (offer.status !== 'open')
      return {
        ...page,
        items: page.items.filter((item) => item.id !== offer.id),
        total: Math.max(0, page.total - 1),
      };
    return { ...page, items: upsertNewer(page.items, offer) };
  }
  if ((query.page ?? 1) !== 1 || !offerMatchesQuery(offer, query)) return page;
  return { ...page, items: [offer, ...page.items], total: page.total + 1 };
}

/**
 * Whether an `offer.updated` push is an offer that arrived live (the header
 * badge of /offers): open, not counted before, and opened after the tab
 * started listening (an edit of an older open offer is not an arrival).
 * @param since epoch ms from which an opening counts
 */
export function isLiveArrival(
  offer: OfferRecord,
  counted: ReadonlySet<string>,
  since: number,
): boolean {
  if (offer.status !== 'open' || counted.has(offer.id) || !offer.openedAt) return false;
  return Date.parse(offer.openedAt) >= since;
}

/** @returns how many of `applications` are in each status */
export function countByStatus(
  applications: readonly Pick<ApplicationRecord, 'status'>[],
): ApplicationCounts {
  const counts = Object.fromEntries(APPLICATION_STATUSES.map((status) => [status, 0])) as Record<
    ApplicationStatus,
    number
  >;
  for (const { status } of applications) counts[status] += 1;
  return counts;
}
