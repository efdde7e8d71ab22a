/**
 * /user/:username (the public creator profile), for anyone,
 * signed in or not: username, images, interests, socials and track record
 * (reviews and figures computed from their collaborations). Public
 * fields only: never a first name, last name or e-mail. A suspended
 * creator's page shows the BFF's 'This creator is unavailable.' instead.
 * Signed-in people other than the creator may report the profile ("Report").
 */
import { messages } from '@raly/contracts/messages';
import { publicUrlPrefixes } from '@/config/public-urls';
import { useGetPublicCreatorQuery } from '@/features/public-profiles/api/public-profiles-api';
import { TagList } from '@/components/offers/offer-card';
import { ProfileBanner, SocialLinks } from '@/components/offers/public-profile';
import { QueryResult } from '@/components/ui/query-result';
import { ReportButton } from '@/components/reports/report-button';
import type { PublicCreatorPage as PublicCreatorAnswer } from '@raly/contracts/collaboration-reviews';
import { CreatorTrackRecord } from '@/features/public-profiles/components/track-record';

export function PublicCreatorPage({ username }: { username: string }) {
  return (
    <QueryResult result={useGetPublicCreatorQuery(username)} fallback={messages.pageNotFound}>
      {(creator) => <PublicCreatorView creator={creator} />}
    </QueryResult>
  );
}

function PublicCreatorView({ creator }: { creator: PublicCreatorAnswer }) {
  return (
    <section className="mx-auto max-w-5xl space-y-8 px-4 py-10 sm:px-6">
      <ProfileBanner
        name={creator.username}
        profileImg={creator.profileImg}
        coverImg={creator.coverImg}
        publicPath={`${publicUrlPrefixes.user}${creator.username}`}
      ></ProfileBanner>
      <div className="flex justify-end">
        <ReportButton
          item={{ kind: 'creator', id: creator.id }}
          isOwn={(me) => me.user.id === creator.id}
        />
      </div>
      <div className="space-y-4 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <section>
          <h2 className="text-sm font-semibold text-slate-900">Interests</h2>
          <div className="mt-2">
            {creator.interests.length ? (
              <TagList label="Interests" tags={creator.interests} />
            ) : (
              <p className="text-sm text-slate-600">No interests yet.</p>
            )}
          </div>
        </section>
        <SocialLinks socials={creator.socials} />
      </div>
      <CreatorTrackRecord reviews={creator.reviews} figures={creator.figures} />
    </section>
  );
}
