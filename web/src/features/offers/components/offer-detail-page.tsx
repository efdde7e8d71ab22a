/**
 * /offers/:id: the offer (title, brief, interests, platforms,
 * deliverables, compensation, places left, apply-by), its brand's public
 * summary with a verified badge and a link to /brand/<username>, and the
 * Apply form, or the creator's application with its live status. Signed-in people
 * other than the offer's brand may report it ("Report").
 */
import { Link } from 'react-router-dom';
import { messages } from '@raly/contracts/messages';
import { paths, pathOf } from '@/config/paths';
import { offerStatusLabels } from '@/lib/offer-format';
import { useGetOfferQuery } from '@/lib/offers-api';
import { VerifiedBadge } from '@/components/offers/offer-card';
import { OfferDetails } from '@/components/offers/offer-details';
import { Avatar } from '@/components/ui/avatar';
import { BackLink } from '@/components/ui/back-link';
import { Badge } from '@/components/ui/badge';
import { focusRing } from '@/components/ui/button';
import { Notification } from '@/components/ui/notification';
import { ReportButton } from '@/components/reports/report-button';
import { PageHeading } from '@/components/ui/page-heading';
import { QueryResult } from '@/components/ui/query-result';
import type { OfferDetail } from '@raly/contracts/offers';
import { ApplicationForm } from '@/features/offers/components/application-form';
import { MyApplication } from '@/features/offers/components/my-application';

export function OfferDetailPage({ id }: { id: string }) {
  return (
    <QueryResult result={useGetOfferQuery(id)} fallback={messages.offerNotFound}>
      {(detail) => <OfferDetailView detail={detail} />}
    </QueryResult>
  );
}

function OfferDetailView({ detail: { offer, brand, myApplication } }: { detail: OfferDetail }) {
  return (
    <section className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <BackLink to={paths.offers.path}>All offers</BackLink>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <PageHeading>{offer.title}</PageHeading>
        {offer.status !== 'open' && <Badge>{offerStatusLabels[offer.status]}</Badge>}
      </div>
      <div className="mt-3 flex items-center gap-3">
        <Avatar src={brand.profileImg} name={brand.company} className="size-8 text-xs" />
        <Link
          to={pathOf(paths.publicBrand, { username: brand.username })}
          className={`rounded text-sm font-medium text-slate-900 hover:text-indigo-700 ${focusRing}`}
        >
          {brand.company}
        </Link>
        {brand.isVerified && <VerifiedBadge />}
        <div className="ml-auto">
          <ReportButton
            item={{ kind: 'offer', id: offer.id }}
            isOwn={(me) => me.brand?.id === offer.brandId}
          />
        </div>
      </div>
      <div className="mt-8 grid gap-8 lg:grid-cols-[1fr_22rem]">
        <OfferDetails offer={offer} />
        <div>
          {myApplication ? (
            <MyApplication application={myApplication} />
          ) : offer.status === 'open' ? (
            <ApplicationForm offerId={offer.id} />
          ) : (
            <Notification>{messages.offerNotOpen}</Notification>
          )}
        </div>
      </div>
    </section>
  );
}
