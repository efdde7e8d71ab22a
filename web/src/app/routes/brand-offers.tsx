/**
 * The brands' offers pages, each behind BrandOnly:
 * /brand/offers (their offers), /brand/offers/new, /brand/offers/:id/edit
 * (the offer form) and /brand/offers/:id (an offer and its applications).
 */
import { useParams } from 'react-router-dom';
import { BrandOnly } from '@/app/routes/offer-guards';
import { BrandOffersPage } from '@/features/brand-offers/components/brand-offers-page';
import { BrandOfferPage } from '@/features/brand-offers/components/brand-offer-page';
import { EditOfferPage, NewOfferPage } from '@/features/brand-offers/components/offer-form-page';

export function BrandOffersRoute() {
  return <BrandOnly>{() => <BrandOffersPage />}</BrandOnly>;
}

export function NewOfferRoute() {
  return <BrandOnly>{() => <NewOfferPage />}</BrandOnly>;
}

export function EditOfferRoute() {
  const { id = '' } = useParams();
  return <BrandOnly>{() => <EditOfferPage key={id} id={id} />}</BrandOnly>;
}

export function BrandOfferRoute() {
  const { id = '' } = useParams();
  return <BrandOnly>{() => <BrandOfferPage key={id} id={id} />}</BrandOnly>;
}
