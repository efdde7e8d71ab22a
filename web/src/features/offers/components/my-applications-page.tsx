/**
 * /applications, 'My applications': every application of the
 * signed-in creator, newest first, with its live status and a link to
 * its offer.
 */
import { Link } from 'react-router-dom';
import { messages } from '@raly/contracts/messages';
import { paths, pathOf } from '@/config/paths';
import { formatDate } from '@/lib/offer-format';
import { useGetMyApplicationsQuery } from '@/lib/offers-api';
import { ApplicationStatusBadge } from '@/components/offers/application-status-badge';
import { buttonClass, focusRing } from '@/components/ui/button';
import { PageHeading } from '@/components/ui/page-heading';
import { QueryResult } from '@/components/ui/query-result';
import type { ApplicationRecord } from '@raly/contracts/offers';

export function MyApplicationsPage() {
  return (
    <section className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <PageHeading>My applications</PageHeading>
      <div className="mt-6">
        <QueryResult<ApplicationRecord[]>
          result={useGetMyApplicationsQuery()}
          fallback={messages.genericProblem}
          framed={false}
        >
          {(data) =>
            data.length === 0 ? (
              <div className="rounded-lg border-2 border-dashed border-slate-300 px-6 py-12 text-center">
                <p className="text-sm text-slate-600">You have not applied to any offer yet.</p>
                <Link to={paths.offers.path} className={`${buttonClass('primary')} mt-4`}>
                  Browse offers
                </Link>
              </div>
            ) : (
              <ul
                aria-label="Applications"
                className="divide-y divide-slate-200 rounded-lg bg-white shadow-sm ring-1 ring-slate-200"
              >
                {data.map((application) => (
                  <li
                    key={application.id}
                    data-application-id={application.id}
                    className="flex flex-wrap items-center justify-between gap-4 px-5 py-4"
                  >
                    <div className="min-w-0">
                      <Link
                        to={pathOf(paths.offer, { id: application.offerId })}
                        className={`rounded font-medium text-slate-900 hover:text-indigo-700 ${focusRing}`}
                      >
                        {application.offer.title}
                      </Link>
                      <p className="text-sm text-slate-600">
                        {application.offer.brand.company} · sent {formatDate(application.created)}
                      </p>
                    </div>
                    <ApplicationStatusBadge status={application.status} />
                  </li>
                ))}
              </ul>
            )
          }
        </QueryResult>
      </div>
    </section>
  );
}
