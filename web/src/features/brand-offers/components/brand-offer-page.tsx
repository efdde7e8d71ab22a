/**
 * /brand/offers/:id: one of the brand's offers with Edit,
 * Publish (a draft) and Close (an open offer, 'Offer closed.'), its
 * details, and its applications, each with the applicant's public profile
 * and Accept / Decline, all updating live.
 */
import { Link } from 'react-router-dom';
import { messages } from '@raly/contracts/messages';
import { paths, pathOf } from '@/config/paths';
import { offerStatusLabels } from '@/lib/offer-format';
import { useGetOfferApplicationsQuery, useGetOfferQuery } from '@/lib/offers-api';
import {
  useCloseOfferMutation,
  useOpenOfferMutation,
} from '@/features/brand-offers/api/brand-offers-api';
import { useCommandToast } from '@/lib/use-command-toast';
import { OfferDetails } from '@/components/offers/offer-details';
import { BackLink } from '@/components/ui/back-link';
import { Badge } from '@/components/ui/badge';
import { Button, buttonClass } from '@/components/ui/button';
import { PageHeading } from '@/components/ui/page-heading';
import { QueryResult } from '@/components/ui/query-result';
import type { ApplicationRecord, OfferRecord } from '@raly/contracts/offers';
import { ApplicantCard } from '@/features/brand-offers/components/applicant-card';

function Applications({ offerId }: { offerId: string }) {
  return (
    <QueryResult<ApplicationRecord[]>
      result={useGetOfferApplicationsQuery(offerId)}
      fallback={messages.genericProblem}
      framed={false}
    >
      {(applications) =>
        applications.length === 0 ? (
          <p className="text-sm text-slate-600">No applications yet. They show up here live.</p>
        ) : (
          <ul aria-label="Applications" className="space-y-4">
            {applications.map((application) => (
              <li key={application.id}>
                <ApplicantCard application={application} />
              </li>
            ))}
          </ul>
        )
      }
    </QueryResult>
  );
}

export function BrandOfferPage({ id }: { id: string }) {
  return (
    <QueryResult result={useGetOfferQuery(id)} fallback={messages.offerNotFound}>
      {({ offer }) => <BrandOfferView offer={offer} />}
    </QueryResult>
  );
}

function BrandOfferView({ offer }: { offer: OfferRecord }) {
  const [closeOffer, { isLoading: closing }] = useCloseOfferMutation();
  const [openOffer, { isLoading: opening }] = useOpenOfferMutation();
  const run = useCommandToast();
  const act = (action: 'close' | 'open') =>
    action === 'close'
      ? run(() => closeOffer(offer.id).unwrap(), messages.offerClosedNotice)
      : run(() => openOffer(offer.id).unwrap(), messages.offerPublished);

  return (
    <section className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <BackLink to={paths.brandOffers.path}>Your offers</BackLink>
      <div className="mt-4 flex flex-wrap items-center justify-between gap-4">
        <div className="flex flex-wrap items-center gap-3">
          <PageHeading>{offer.title}</PageHeading>
          <Badge tone={offer.status === 'open' ? 'green' : 'neutral'}>
            <span data-testid="offer-status">{offerStatusLabels[offer.status]}</span>
          </Badge>
        </div>
        <div className="flex gap-3">
          {offer.status !== 'closed' && (
            <Link
              to={pathOf(paths.brandOfferEdit, { id: offer.id })}
              className={buttonClass('secondary')}
            >
              Edit
            </Link>
          )}
          {offer.status === 'draft' && (
            <Button busy={opening} onClick={() => void act('open')}>
              Publish
            </Button>
          )}
          {offer.status === 'open' && (
            <Button variant="secondary" busy={closing} onClick={() => void act('close')}>
              Close
            </Button>
          )}
        </div>
      </div>
      <div className="mt-8 grid gap-8 lg:grid-cols-[1fr_1fr]">
        <OfferDetails offer={offer} />
        <section aria-labelledby="applications-heading">
          <h2 id="applications-heading" className="text-lg font-semibold text-slate-900">
            Applications
          </h2>
          <div className="mt-4">
            <Applications offerId={offer.id} />
          </div>
        </section>
      </div>
    </section>
  );
}
