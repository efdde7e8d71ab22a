/**
 * An offer as a card in a list: title linking to the offer, the
 * brand (verified badge when `brand.isVerified`), compensation, interests,
 * platforms, places left and apply-by. Used by the creators' feed and the
 * public brand profile.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { OfferRecord } from '@raly/contracts/offers';
import { compensationText, formatDate, placesLeftOf, platformLabels } from '@/lib/offer-format';
import { Avatar } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { focusRing } from '@/components/ui/button';

/** The mark shown beside a verified brand's name. */
export function VerifiedBadge() {
  return (
    <span className="inline-flex items-center gap-1 text-xs font-medium text-indigo-700">
      <svg viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" className="size-4">
        <path
          fillRule="evenodd"
          d="M16.403 12.652a3 3 0 0 0 0-5.304 3 3 0 0 0-3.75-3.751 3 3 0 0 0-5.305 0 3 3 0 0 0-3.751 3.75 3 3 0 0 0 0 5.305 3 3 0 0 0 3.75 3.751 3 3 0 0 0 5.305 0 3 3 0 0 0 3.751-3.75Zm-2.546-4.46a.75.75 0 0 0-1.214-.883l-3.483 4.79-1.88-1.88a.75.75 0 1 0-1.06 1.061l2.5 2.5a.75.75 0 0 0 1.137-.089l4-5.5Z"
          clipRule="evenodd"
        />
      </svg>
      Verified
    </span>
  );
}

/** A row of small tags (interests, platforms). */
export function TagList({ label, tags }: { label: string; tags: readonly string[] }) {
  return (
    <ul aria-label={label} className="flex flex-wrap gap-1.5">
      {tags.map((tag) => (
        <li key={tag}>
          <Badge>{tag}</Badge>
        </li>
      ))}
    </ul>
  );
}

/** A label and its value in an offer's facts. */
export function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{term}</dt>
      <dd className="mt-0.5 text-sm text-slate-900">{children}</dd>
    </div>
  );
}

export function OfferCard({
  offer,
  to,
  highlight = false,
}: {
  offer: OfferRecord;
  /** Where the title links to. */
  to: string;
  /** Marks an offer that arrived live. */
  highlight?: boolean;
}) {
  return (
    <article
      data-testid="offer-card"
      data-offer-id={offer.id}
      className={`rounded-lg bg-white p-5 shadow-sm ring-1 ${highlight ? 'ring-indigo-300' : 'ring-slate-200'}`}
    >
      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0">
          <h3 className="text-base font-semibold text-slate-900">
            <Link to={to} className={`rounded hover:text-indigo-700 ${focusRing}`}>
              {offer.title}
            </Link>
          </h3>
          <p className="mt-1 flex items-center gap-2 text-sm text-slate-600">
            <Avatar
              src={offer.brand.profileImg}
              name={offer.brand.company}
              className="size-5 text-[0.6rem]"
            />
            <span>{offer.brand.company}</span>
            {offer.brand.isVerified && <VerifiedBadge />}
          </p>
        </div>
        {highlight && <Badge tone="indigo">New</Badge>}
      </div>
      <p className="mt-3 line-clamp-2 text-sm text-slate-700">{offer.brief}</p>
      <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Fact term="Compensation">{compensationText(offer.compensation)}</Fact>
        <Fact term="Places left">{placesLeftOf(offer)}</Fact>
        <Fact term="Apply by">{formatDate(offer.applyBy)}</Fact>
        <Fact term="Platforms">
          {offer.platforms.map((each) => platformLabels[each]).join(', ')}
        </Fact>
      </dl>
      <div className="mt-4">
        <TagList label="Interests" tags={offer.interests} />
      </div>
    </article>
  );
}
