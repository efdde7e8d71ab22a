/**
 * The brand dashboard's live figures: the brand's open, draft and closed
 * offers and the applications waiting for its decision, each a link to the
 * brand's offers list filtered to what it counts. The figures follow the
 * live pushes (../api/brand-offers-summary-api).
 */
import { Link } from 'react-router-dom';
import type { BrandOffersSummary as Figures } from '@raly/contracts/bff-api';
import { paths } from '@/config/paths';
import { buttonClass, focusRing } from '@/components/ui/button';
import { useGetBrandOffersSummaryQuery } from '@/features/dashboard/api/brand-offers-summary-api';

interface Figure {
  label: string;
  /** The brand offers list's filter (its query string). */
  filter: string;
  value: (figures: Figures) => number;
  testId: string;
}

const figures: Figure[] = [
  {
    label: 'Open offers',
    filter: 'status=open',
    value: (f) => f.offers.open,
    testId: 'open-offers',
  },
  {
    label: 'Draft offers',
    filter: 'status=draft',
    value: (f) => f.offers.draft,
    testId: 'draft-offers',
  },
  {
    label: 'Closed offers',
    filter: 'status=closed',
    value: (f) => f.offers.closed,
    testId: 'closed-offers',
  },
  {
    label: 'Applications waiting for a decision',
    filter: 'applications=pending',
    value: (f) => f.pendingApplications,
    testId: 'pending-applications',
  },
];

export function BrandOffersSummary() {
  const { data } = useGetBrandOffersSummaryQuery();
  return (
    <section aria-labelledby="brand-offers-summary-heading" className="mt-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 id="brand-offers-summary-heading" className="text-lg font-semibold text-slate-900">
          Your offers
        </h2>
        <Link to={paths.brandOffers.path} className={buttonClass('secondary')}>
          Manage offers
        </Link>
      </div>
      <ul className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-4">
        {figures.map(({ label, filter, value, testId }) => (
          <li key={testId}>
            <Link
              to={`${paths.brandOffers.path}?${filter}`}
              className={`block rounded-lg bg-white px-5 py-4 shadow-sm ring-1 ring-slate-200 hover:ring-indigo-300 ${focusRing}`}
            >
              <span className="block text-sm text-slate-600">{label}</span>
              <span
                data-testid={testId}
                className="mt-1 block text-2xl font-semibold text-slate-900 tabular-nums"
              >
                {data ? value(data) : '–'}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
