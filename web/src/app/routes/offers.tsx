/**
 * The creators' offers pages, each behind CreatorOnly:
 * /offers (the feed), /offers/:id (an offer and the Apply form) and
 * /applications (My applications).
 */
import { useParams } from 'react-router-dom';
import { CreatorOnly } from '@/app/routes/offer-guards';
import { OffersFeedPage } from '@/features/offers/components/offers-feed-page';
import { OfferDetailPage } from '@/features/offers/components/offer-detail-page';
import { MyApplicationsPage } from '@/features/offers/components/my-applications-page';

export function OffersRoute() {
  return <CreatorOnly>{() => <OffersFeedPage />}</CreatorOnly>;
}

export function OfferRoute() {
  const { id = '' } = useParams();
  return <CreatorOnly>{() => <OfferDetailPage key={id} id={id} />}</CreatorOnly>;
}

export function ApplicationsRoute() {
  return <CreatorOnly>{() => <MyApplicationsPage />}</CreatorOnly>;
}
