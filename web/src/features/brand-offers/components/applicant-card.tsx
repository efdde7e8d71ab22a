/**
 * One application on /brand/offers/:id: the applicant's public
 * profile only (username linking to /user/<username>, images, interests,
 * socials; never a name or e-mail), the pitch and proposed rate, the live
 * status with the member who decided by team handle ("Accepted by sam"),
 * Accept / Decline while pending ('Application accepted.',
 * 'Application declined.'; failure: the returned error text), and once
 * accepted the way to the collaboration.
 */
import { Link } from 'react-router-dom';
import { messages } from '@raly/contracts/messages';
import type { ApplicationRecord } from '@raly/contracts/offers';
import { paths, pathOf } from '@/config/paths';
import { decidedByLabel, formatDate, formatMoney } from '@/lib/offer-format';
import { useDecideApplicationMutation } from '@/features/brand-offers/api/brand-offers-api';
import { useCommandToast } from '@/lib/use-command-toast';
import { ApplicationStatusBadge } from '@/components/offers/application-status-badge';
import { TagList } from '@/components/offers/offer-card';
import { SocialLinks } from '@/components/offers/public-profile';
import { Avatar } from '@/components/ui/avatar';
import { Button, focusRing } from '@/components/ui/button';
import { CollaborationLink } from '@/components/collaborations/collaboration-link';

export function ApplicantCard({ application }: { application: ApplicationRecord }) {
  const [decide, { isLoading, originalArgs }] = useDecideApplicationMutation();
  const runCommand = useCommandToast();
  const { creator } = application;
  const decidedBy = decidedByLabel(application);

  const run = (action: 'accept' | 'decline') =>
    runCommand(
      () => decide({ id: application.id, action }).unwrap(),
      action === 'accept' ? messages.applicationAccepted : messages.applicationDeclined,
    );
  const busy = (action: 'accept' | 'decline') => isLoading && originalArgs?.action === action;

  return (
    <article
      data-application-id={application.id}
      aria-label={`Application of ${creator.username}`}
      className="overflow-hidden rounded-lg bg-white p-5 shadow-sm ring-1 ring-slate-200"
    >
      {creator.coverImg && (
        <img
          src={creator.coverImg}
          alt=""
          className="-mx-5 -mt-5 mb-4 h-20 w-[calc(100%+2.5rem)] max-w-none object-cover"
        />
      )}
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex min-w-0 items-center gap-3">
          <Avatar src={creator.profileImg} name={creator.username} className="size-12 text-base" />
          <div className="min-w-0">
            <Link
              to={pathOf(paths.publicCreator, { username: creator.username })}
              className={`rounded font-semibold text-slate-900 hover:text-indigo-700 ${focusRing}`}
            >
              {creator.username}
            </Link>
            <p className="text-sm text-slate-500">Applied {formatDate(application.created)}</p>
          </div>
        </div>
        <div className="flex flex-col items-end gap-1">
          <ApplicationStatusBadge status={application.status} />
          {decidedBy && (
            <p data-testid="application-decided-by" className="text-xs text-slate-500">
              {decidedBy}
            </p>
          )}
        </div>
      </div>
      {creator.interests.length > 0 && (
        <div className="mt-3">
          <TagList label="Interests" tags={creator.interests} />
        </div>
      )}
      <div className="mt-3">
        <SocialLinks socials={creator.socials} />
      </div>
      <p className="mt-4 text-sm whitespace-pre-line text-slate-700">{application.pitch}</p>
      {application.proposedRate && (
        <p className="mt-2 text-sm text-slate-700">
          Proposed rate: {formatMoney(application.proposedRate)}
        </p>
      )}
      {application.status === 'accepted' && (
        <div className="mt-4 flex justify-end">
          <CollaborationLink applicationId={application.id} />
        </div>
      )}
      {application.status === 'pending' && (
        <div className="mt-4 flex justify-end gap-3">
          <Button
            variant="secondary"
            busy={busy('decline')}
            disabled={isLoading}
            onClick={() => void run('decline')}
          >
            Decline
          </Button>
          <Button busy={busy('accept')} disabled={isLoading} onClick={() => void run('accept')}>
            Accept
          </Button>
        </div>
      )}
    </article>
  );
}
