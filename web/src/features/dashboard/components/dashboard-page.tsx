/**
 * The dashboard of an onboarded user: a placeholder (spec §1) that greets them and says what comes
 * here, and below it the live offers and collaborations summaries.
 */
import { Link } from 'react-router-dom';
import { isBrandUser } from '@raly/contracts/records';
import { paths } from '@/config/paths';
import type { Me } from '@raly/contracts/bff-api';
import { buttonClass } from '@/components/ui/button';
import { PageHeading } from '@/components/ui/page-heading';
import { displayNameOf } from '@/components/layout/current-user';
import { CollaborationsSummary } from '@/features/dashboard/components/collaborations-summary';
import { OffersSummary } from '@/features/dashboard/components/offers-summary';

export function DashboardPage({ me }: { me: Me }) {
  const brandUser = isBrandUser(me.user);
  return (
    <section className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <PageHeading>Dashboard</PageHeading>
      <p className="mt-2 text-slate-600">Welcome, {displayNameOf(me.user)}.</p>
      <div className="mt-8 rounded-xl border-2 border-dashed border-slate-300 bg-white px-6 py-16 text-center">
        <svg
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.5"
          aria-hidden="true"
          className="mx-auto size-10 text-slate-400"
        >
          <path
            strokeLinecap="round"
            strokeLinejoin="round"
            d="M3.75 3v11.25A2.25 2.25 0 0 0 6 16.5h2.25M3.75 3h-1.5m1.5 0h16.5m0 0h1.5m-1.5 0v11.25A2.25 2.25 0 0 1 18 16.5h-2.25m-7.5 0h7.5m-7.5 0-1 3m8.5-3 1 3m0 0 .5 1.5m-.5-1.5h-9.5m0 0-.5 1.5"
          />
        </svg>
        <h2 className="mt-4 text-lg font-semibold text-slate-900">
          {brandUser ? 'Your campaigns will show up here' : 'Campaigns for you will show up here'}
        </h2>
        <p className="mx-auto mt-2 max-w-md text-sm text-slate-600">
          {brandUser
            ? 'Soon you will post offers and follow how creators take part.'
            : 'Soon you will find offers from brands that match your interests.'}
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <Link to={paths.settingsAccount.path} className={buttonClass('secondary')}>
            Review your settings
          </Link>
          {brandUser && (
            <Link to={paths.brandTeam.path} className={buttonClass('secondary')}>
              Your team
            </Link>
          )}
        </div>
      </div>
      <OffersSummary me={me} brandUser={brandUser} />
      <CollaborationsSummary brandUser={brandUser} />
    </section>
  );
}
