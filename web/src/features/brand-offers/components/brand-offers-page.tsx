/**
 * /brand/offers: the brand's offers, newest first, each with its
 * status, places filled and its applications by status (live), and a
 * 'New offer' button. The query string may narrow the list to one status
 * or to offers with pending applications (../utils/offers-filter).
 */
import { Link, useSearchParams } from 'react-router-dom';
import { messages } from '@raly/contracts/messages';
import { APPLICATION_STATUSES } from '@raly/contracts/offers';
import { paths, pathOf } from '@/config/paths';
import { applicationStatusLabels, formatDate, offerStatusLabels } from '@/lib/offer-format';
import { useGetBrandOffersQuery } from '@/lib/offers-api';
import { Badge } from '@/components/ui/badge';
import { buttonClass, focusRing } from '@/components/ui/button';
import { PageHeading } from '@/components/ui/page-heading';
import { QueryResult } from '@/components/ui/query-result';
import type { BrandOffer } from '@raly/contracts/offers';
import {
  filterOffers,
  offersFilterLabel,
  offersFilterOf,
} from '@/features/brand-offers/utils/offers-filter';

export function BrandOffersPage() {
  const [search] = useSearchParams();
  const filter = offersFilterOf(search);
  return (
    <section className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <PageHeading>Your offers</PageHeading>
        <Link to={paths.brandOfferNew.path} className={buttonClass('primary')}>
          New offer
        </Link>
      </div>
      {filter && (
        <p className="mt-4 flex flex-wrap items-center gap-3 text-sm text-slate-600">
          <span>Showing: {offersFilterLabel(filter)}</span>
          <Link
            to={paths.brandOffers.path}
            className={`rounded font-medium text-indigo-700 hover:text-indigo-900 ${focusRing}`}
          >
            Show all offers
          </Link>
        </p>
      )}
      <div className="mt-6">
        <QueryResult<BrandOffer[]>
          result={useGetBrandOffersQuery()}
          fallback={messages.genericProblem}
          framed={false}
        >
          {(all) => {
            const data = filterOffers(all, filter);
            return data.length === 0 ? (
              <p className="rounded-lg border-2 border-dashed border-slate-300 px-6 py-12 text-center text-sm text-slate-600">
                {filter
                  ? 'No offers here.'
                  : 'No offers yet. Post one and matching creators see it at once.'}
              </p>
            ) : (
              <ul aria-label="Your offers" className="space-y-4">
                {data.map((offer) => (
                  <li
                    key={offer.id}
                    data-offer-id={offer.id}
                    className="rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200"
                  >
                    <div className="flex flex-wrap items-center justify-between gap-3">
                      <div className="flex min-w-0 items-center gap-3">
                        <Link
                          to={pathOf(paths.brandOffer, { id: offer.id })}
                          className={`rounded font-semibold text-slate-900 hover:text-indigo-700 ${focusRing}`}
                        >
                          {offer.title}
                        </Link>
                        <Badge tone={offer.status === 'open' ? 'green' : 'neutral'}>
                          {offerStatusLabels[offer.status]}
                        </Badge>
                      </div>
                      <p className="text-sm text-slate-600">
                        {offer.placesFilled} of {offer.creatorsWanted} places filled · apply by{' '}
                        {formatDate(offer.applyBy)}
                      </p>
                    </div>
                    <dl
                      aria-label="Applications"
                      className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-sm"
                    >
                      {APPLICATION_STATUSES.map((status) => (
                        <div key={status} className="flex gap-1.5">
                          <dt className="text-slate-500">{applicationStatusLabels[status]}</dt>
                          <dd className="font-medium text-slate-900" data-count={status}>
                            {offer.applicationCounts[status]}
                          </dd>
                        </div>
                      ))}
                    </dl>
                  </li>
                ))}
              </ul>
            );
          }}
        </QueryResult>
      </div>
    </section>
  );
}
