/**
 * The terms both sides agreed to, frozen when the brand accepted: the
 * offer's deliverables and compensation, and the creator's proposed rate
 * when one was accepted with the application.
 */
import type { CollaborationTerms } from '@raly/contracts/collaborations';
import { compensationText, formatMoney } from '@/lib/offer-format';
import { Fact } from '@/components/offers/offer-card';

export function TermsPanel({ terms }: { terms: CollaborationTerms | null }) {
  return (
    <section
      aria-labelledby="terms-heading"
      className="space-y-4 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200"
    >
      <h2 id="terms-heading" className="text-lg font-semibold text-slate-900">
        Terms
      </h2>
      {terms ? (
        <>
          <dl className="grid grid-cols-1 gap-4">
            <Fact term="Compensation">{compensationText(terms.compensation)}</Fact>
            {terms.agreedRate && <Fact term="Agreed rate">{formatMoney(terms.agreedRate)}</Fact>}
          </dl>
          <section>
            <h3 className="text-sm font-semibold text-slate-900">Deliverables</h3>
            <p className="mt-1 text-sm whitespace-pre-line text-slate-700">{terms.deliverables}</p>
          </section>
        </>
      ) : (
        <p className="text-sm text-slate-600">
          The terms were not recorded with this collaboration: see the offer.
        </p>
      )}
    </section>
  );
}
