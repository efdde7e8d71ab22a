/**
 * The dashboard's live offers summary, below the spec's
 * placeholder. Creators: how many open offers match their interests and
 * their applications by status (lib/offers-api). Brands: their offers by
 * status and the applications waiting for a decision
 * (./brand-offers-summary). Both follow the live pushes.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { Me } from '@raly/contracts/bff-api';
import { APPLICATION_STATUSES } from '@raly/contracts/offers';
import { paths } from '@/config/paths';
import { applicationStatusLabels } from '@/lib/offer-format';
import { countByStatus } from '@/lib/offer-live';
import { useGetMyApplicationsQuery, useGetOffersQuery } from '@/lib/offers-api';
import { buttonClass } from '@/components/ui/button';
import { BrandOffersSummary } from '@/features/dashboard/components/brand-offers-summary';

function Stat({
  label,
  value,
  testId,
}: {
  label: string;
  value: number | undefined;
  testId: string;
}) {
  return (
    <div className="rounded-lg bg-white px-5 py-4 shadow-sm ring-1 ring-slate-200">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd data-testid={testId} className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums">
        {value ?? '–'}
      </dd>
    </div>
  );
}

function Summary({
  title,
  link,
  children,
}: {
  title: string;
  /** The page the summary leads to and the link's text. */
  link: { to: string; label: string };
  children: ReactNode;
}) {
  return (
    <section aria-labelledby="offers-summary-heading" className="mt-8">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 id="offers-summary-heading" className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        <Link to={link.to} className={buttonClass('secondary')}>
          {link.label}
        </Link>
      </div>
      <dl className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-5">{children}</dl>
    </section>
  );
}

function CreatorSummary({ me }: { me: Me }) {
  const { data: matching } = useGetOffersQuery({ interest: me.user.interests, pageSize: 1 });
  const { data: applications } = useGetMyApplicationsQuery();
  const counts = applications ? countByStatus(applications) : undefined;
  return (
    <Summary title="Your offers" link={{ to: paths.offers.path, label: 'Browse offers' }}>
      <Stat label="Open offers for you" value={matching?.total} testId="matching-offers" />
      {APPLICATION_STATUSES.map((status) => (
        <Stat
          key={status}
          label={`${applicationStatusLabels[status]} applications`}
          value={counts?.[status]}
          testId={`applications-${status}`}
        />
      ))}
    </Summary>
  );
}

export function OffersSummary({ me, brandUser }: { me: Me; brandUser: boolean }) {
  return brandUser ? <BrandOffersSummary /> : <CreatorSummary me={me} />;
}
