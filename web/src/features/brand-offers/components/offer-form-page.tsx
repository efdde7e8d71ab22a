/**
 * /brand/offers/new and /brand/offers/:id/edit: the offer form,
 * empty or filled from the offer; a closed offer is final and cannot be
 * edited.
 */
import type { ReactNode } from 'react';
import { messages } from '@raly/contracts/messages';
import { apiErrorMessage } from '@/lib/api-error';
import { useGetOfferQuery } from '@/lib/offers-api';
import { Notification } from '@/components/ui/notification';
import { PageHeading } from '@/components/ui/page-heading';
import { PageSpinner } from '@/components/ui/spinner';
import { OfferForm } from '@/features/brand-offers/components/offer-form';

function Frame({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <section className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <PageHeading>{heading}</PageHeading>
      <div className="mt-6">{children}</div>
    </section>
  );
}

export function NewOfferPage() {
  return (
    <Frame heading="New offer">
      <OfferForm />
    </Frame>
  );
}

export function EditOfferPage({ id }: { id: string }) {
  const { data, isLoading, error } = useGetOfferQuery(id);
  return (
    <Frame heading="Edit offer">
      {isLoading ? (
        <PageSpinner />
      ) : !data ? (
        <Notification>{apiErrorMessage(error, messages.offerNotFound)}</Notification>
      ) : data.offer.status === 'closed' ? (
        <Notification>{messages.offerClosed}</Notification>
      ) : (
        <OfferForm key={data.offer.id} offer={data.offer} />
      )}
    </Frame>
  );
}
