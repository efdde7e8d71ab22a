/**
 * /offers: the creator's feed of open offers, those matching
 * their interests first (the BFF's order), with filters by interest and
 * platform, a text search and paging, all kept in the URL. Live: an offer
 * arriving on the socket appears at the top of the first page, marked New;
 * opening the feed clears the header's offers badge.
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { useDispatch, useSelector } from 'react-redux';
import { INTERESTS } from '@raly/contracts/constants';
import { messages } from '@raly/contracts/messages';
import { OFFER_PLATFORMS, OFFER_SEARCH_MAX_LENGTH } from '@raly/contracts/offers';
import { paths, pathOf } from '@/config/paths';
import { offersFeedSeen, selectCountedOffers, selectUnseenOffers } from '@/lib/offer-arrivals';
import { platformLabels } from '@/lib/offer-format';
import { useGetOffersQuery } from '@/lib/offers-api';
import { OfferCard } from '@/components/offers/offer-card';
import { Button, buttonClass } from '@/components/ui/button';
import { Notification } from '@/components/ui/notification';
import { PageHeading } from '@/components/ui/page-heading';
import { PageSpinner } from '@/components/ui/spinner';
import { TextField } from '@/components/ui/text-field';
import { FilterChips } from '@/features/offers/components/filter-chips';
import {
  feedQueryOf,
  pageCountOf,
  searchParamsOf,
  toggled,
} from '@/features/offers/utils/feed-filters';

/** Clears the header's badge while the feed is on screen. */
function useFeedSeen(): ReadonlySet<string> {
  const dispatch = useDispatch();
  const unseen = useSelector(selectUnseenOffers);
  const counted = useSelector(selectCountedOffers);
  useEffect(() => {
    dispatch(offersFeedSeen());
  }, [dispatch, unseen]);
  return new Set(counted);
}

export function OffersFeedPage() {
  const [params, setParams] = useSearchParams();
  const query = feedQueryOf(params);
  const [search, setSearch] = useState(query.q ?? '');
  const arrived = useFeedSeen();
  const { data, isLoading, isError, isFetching } = useGetOffersQuery(query);

  const change = (changes: Partial<typeof query>) =>
    setParams(searchParamsOf({ ...query, page: 1, ...changes }));
  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    change({ q: search });
  };
  const pages = data ? pageCountOf(data.total, data.pageSize) : 1;

  return (
    <section className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <PageHeading>Offers</PageHeading>
        <Link to={paths.applications.path} className={buttonClass('secondary')}>
          My applications
        </Link>
      </div>
      <div className="mt-6 grid gap-8 lg:grid-cols-[16rem_1fr]">
        <aside className="space-y-6" aria-label="Filters">
          <form role="search" onSubmit={onSearch} className="flex items-end gap-2">
            <TextField
              label="Search"
              type="search"
              className="flex-1"
              maxLength={OFFER_SEARCH_MAX_LENGTH}
              value={search}
              onChange={(event) => setSearch(event.target.value)}
            />
            <Button type="submit" variant="secondary">
              Search
            </Button>
          </form>
          <FilterChips
            legend="Interests"
            options={INTERESTS}
            selected={query.interest ?? []}
            onToggle={(interest) => change({ interest: toggled(query.interest ?? [], interest) })}
          />
          <FilterChips
            legend="Platforms"
            options={OFFER_PLATFORMS}
            labels={platformLabels}
            selected={query.platform ?? []}
            onToggle={(platform) => change({ platform: toggled(query.platform ?? [], platform) })}
          />
        </aside>
        <div aria-busy={isFetching || undefined}>
          {isLoading ? (
            <PageSpinner />
          ) : isError || !data ? (
            <Notification>{messages.genericProblem}</Notification>
          ) : data.items.length === 0 ? (
            <p className="rounded-lg border-2 border-dashed border-slate-300 px-6 py-12 text-center text-sm text-slate-600">
              No offers match these filters yet. New ones show up here as soon as brands post them.
            </p>
          ) : (
            <>
              <p className="text-sm text-slate-600">
                {data.total} {data.total === 1 ? 'offer' : 'offers'}
              </p>
              <ul aria-label="Offers" className="mt-3 space-y-4">
                {data.items.map((offer) => (
                  <li key={offer.id}>
                    <OfferCard
                      offer={offer}
                      to={pathOf(paths.offer, { id: offer.id })}
                      highlight={arrived.has(offer.id)}
                    />
                  </li>
                ))}
              </ul>
              {pages > 1 && (
                <nav aria-label="Pages" className="mt-6 flex items-center justify-between gap-4">
                  <Button
                    variant="secondary"
                    disabled={query.page <= 1}
                    onClick={() => change({ page: query.page - 1 })}
                  >
                    Previous
                  </Button>
                  <span className="text-sm text-slate-600">
                    Page {query.page} of {pages}
                  </span>
                  <Button
                    variant="secondary"
                    disabled={query.page >= pages}
                    onClick={() => change({ page: query.page + 1 })}
                  >
                    Next
                  </Button>
                </nav>
              )}
            </>
          )}
        </div>
      </div>
    </section>
  );
}
