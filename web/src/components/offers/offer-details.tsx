/**
 * An offer's full details: brief, deliverables and the facts
 * (compensation formatted from minor units, places left, apply-by,
 * interests, platforms). Shown to creators at /offers/:id and to the brand
 * at /brand/offers/:id.
 */
import type { OfferRecord } from '@raly/contracts/offers';
import { compensationText, formatDate, placesLeftOf, platformLabels } from '@/lib/offer-format';
import { Fact, TagList } from '@/components/offers/offer-card';

export function OfferDetails({ offer }: { offer: OfferRecord }) {
  return (
    <div className="space-y-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-3">
        <Fact term="Compensation">{compensationText(offer.compensation)}</Fact>
        <Fact term="Places left">
          <span data-testid="places-left">{placesLeftOf(offer)}</span> of {offer.creatorsWanted}
        </Fact>
        <Fact term="Apply by">{formatDate(offer.applyBy)}</Fact>
      </dl>
      <section>
        <h2 className="text-sm font-semibold text-slate-900">Brief</h2>
        <p className="mt-1 text-sm whitespace-pre-line text-slate-700">{offer.brief}</p>
      </section>
      <section>
        <h2 className="text-sm font-semibold text-slate-900">Deliverables</h2>
        <p className="mt-1 text-sm whitespace-pre-line text-slate-700">{offer.deliverables}</p>
      </section>
      <div className="grid gap-4 sm:grid-cols-2">
        <section>
          <h2 className="text-sm font-semibold text-slate-900">Interests</h2>
          <div className="mt-2">
            <TagList label="Interests" tags={offer.interests} />
          </div>
        </section>
        <section>
          <h2 className="text-sm font-semibold text-slate-900">Platforms</h2>
          <div className="mt-2">
            <TagList label="Platforms" tags={offer.platforms.map((each) => platformLabels[each])} />
          </div>
        </section>
      </div>
    </div>
  );
}
