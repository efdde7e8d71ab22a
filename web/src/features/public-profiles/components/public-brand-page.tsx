/**
 * /brand/:username (spec §1 public brand profile), for anyone,
 * signed in or not: the brand's company, username, bio, website, socials,
 * images, verified badge, open offers and track record (reviews and figures
 * computed from its collaborations). Public fields only: never a
 * member's first name, last name or e-mail. Signed-in people other than the
 * brand's members may report the profile ("Report").
 */
import { messages } from '@raly/contracts/messages';
import { paths, pathOf } from '@/config/paths';
import { publicUrlPrefixes } from '@/config/public-urls';
import { useGetPublicBrandQuery } from '@/features/public-profiles/api/public-profiles-api';
import { useSession } from '@/lib/use-session';
import { OfferCard } from '@/components/offers/offer-card';
import { ProfileBanner, SocialLinks } from '@/components/offers/public-profile';
import { focusRing } from '@/components/ui/button';
import { QueryResult } from '@/components/ui/query-result';
import { ReportButton } from '@/components/reports/report-button';
import type { PublicBrandPage as PublicBrandAnswer } from '@raly/contracts/collaboration-reviews';
import { BrandTrackRecord } from '@/features/public-profiles/components/track-record';

export function PublicBrandPage({ username }: { username: string }) {
  return (
    <QueryResult result={useGetPublicBrandQuery(username)} fallback={messages.pageNotFound}>
      {(brand) => <PublicBrandView brand={brand} />}
    </QueryResult>
  );
}

function PublicBrandView({ brand }: { brand: PublicBrandAnswer }) {
  const signedIn = useSession().status === 'signed-in';
  return (
    <section className="mx-auto max-w-5xl space-y-8 px-4 py-10 sm:px-6">
      <ProfileBanner
        name={brand.company}
        profileImg={brand.profileImg}
        coverImg={brand.coverImg}
        publicPath={`${publicUrlPrefixes.brand}${brand.username}`}
        verified={brand.isVerified}
      >
        {brand.websiteUrl && /^https?:\/\//i.test(brand.websiteUrl) && (
          <a
            href={brand.websiteUrl}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className={`rounded text-sm text-indigo-700 hover:underline ${focusRing}`}
          >
            {brand.websiteUrl.replace(/^https?:\/\//i, '')}
          </a>
        )}
      </ProfileBanner>
      <div className="flex justify-end">
        <ReportButton
          item={{ kind: 'brand', id: brand.id }}
          isOwn={(me) => me.brand?.id === brand.id}
        />
      </div>
      {(brand.bio || Object.values(brand.socials).some(Boolean)) && (
        <div className="space-y-3 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
          {brand.bio && <p className="text-sm whitespace-pre-line text-slate-700">{brand.bio}</p>}
          <SocialLinks socials={brand.socials} />
        </div>
      )}
      <BrandTrackRecord reviews={brand.reviews} figures={brand.figures} />
      <section aria-labelledby="brand-offers-heading">
        <h2 id="brand-offers-heading" className="text-lg font-semibold text-slate-900">
          Open offers
        </h2>
        {brand.offers.length === 0 ? (
          <p className="mt-3 text-sm text-slate-600">No open offers right now.</p>
        ) : (
          <ul className="mt-4 space-y-4">
            {brand.offers.map((offer) => (
              <li key={offer.id}>
                <OfferCard
                  offer={offer}
                  to={signedIn ? pathOf(paths.offer, { id: offer.id }) : paths.joinCreator.path}
                />
              </li>
            ))}
          </ul>
        )}
      </section>
    </section>
  );
}
