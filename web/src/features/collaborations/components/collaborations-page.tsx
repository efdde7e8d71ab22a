/**
 * /collaborations: the signed-in user's collaborations, newest activity
 * first: the offer's title, the other side (public names only), the
 * status, the unread count of the user's side, what work waits for that
 * side (hand-ins, reviews, payment steps) and the last activity, all live
 * (lib/collaborations-api).
 */
import { Link } from 'react-router-dom';
import type { Me } from '@raly/contracts/bff-api';
import type { CollaborationRecord } from '@raly/contracts/collaborations';
import { messages } from '@raly/contracts/messages';
import { paths, pathOf } from '@/config/paths';
import { sideOf } from '@/lib/collaboration-live';
import { useGetCollaborationsQuery } from '@/lib/collaborations-api';
import { formatDate } from '@/lib/offer-format';
import { Avatar } from '@/components/ui/avatar';
import { focusRing } from '@/components/ui/button';
import { CountBadge } from '@/components/ui/count-badge';
import { PageHeading } from '@/components/ui/page-heading';
import { QueryResult } from '@/components/ui/query-result';
import { CollaborationStatusBadge } from '@/features/collaborations/components/collaboration-status-badge';
import { counterpartOf } from '@/features/collaborations/utils/counterpart';
import { workWaitingFor } from '@/features/collaborations/utils/work';

export function CollaborationsPage({ me }: { me: Me }) {
  return (
    <section className="mx-auto max-w-4xl px-4 py-10 sm:px-6">
      <PageHeading>Collaborations</PageHeading>
      <p className="mt-2 text-sm text-slate-600">
        Every accepted application opens a collaboration: talk the work through here. Raly never
        shares either side&apos;s name, e-mail or phone number.
      </p>
      <div className="mt-6">
        <QueryResult<CollaborationRecord[]>
          result={useGetCollaborationsQuery()}
          fallback={messages.genericProblem}
          framed={false}
        >
          {(collaborations) =>
            collaborations.length === 0 ? (
              <p className="rounded-lg border-2 border-dashed border-slate-300 px-6 py-12 text-center text-sm text-slate-600">
                No collaborations yet. One opens here as soon as an application is accepted.
              </p>
            ) : (
              <ul
                aria-label="Collaborations"
                className="divide-y divide-slate-200 rounded-lg bg-white shadow-sm ring-1 ring-slate-200"
              >
                {collaborations.map((collaboration) => (
                  <CollaborationRow key={collaboration.id} collaboration={collaboration} me={me} />
                ))}
              </ul>
            )
          }
        </QueryResult>
      </div>
    </section>
  );
}

function CollaborationRow({ collaboration, me }: { collaboration: CollaborationRecord; me: Me }) {
  const side = sideOf(collaboration, me.user);
  if (!side) return null;
  const counterpart = counterpartOf(collaboration, side);
  const unread = collaboration.unread[side];
  const waiting = workWaitingFor(collaboration, side);
  const lastActivity = collaboration.lastMessageAt ?? collaboration.created;
  return (
    <li
      data-collaboration-id={collaboration.id}
      className="flex flex-wrap items-center justify-between gap-4 px-5 py-4"
    >
      <div className="flex min-w-0 items-center gap-3">
        <Avatar src={counterpart.profileImg} name={counterpart.name} className="size-10 text-sm" />
        <div className="min-w-0">
          <Link
            to={pathOf(paths.collaboration, { id: collaboration.id })}
            className={`rounded font-medium text-slate-900 hover:text-indigo-700 ${focusRing}`}
          >
            {collaboration.offer.title}
          </Link>
          <p className="text-sm text-slate-600">
            With {counterpart.name} · last activity{' '}
            <time dateTime={lastActivity}>{formatDate(lastActivity)}</time>
          </p>
        </div>
      </div>
      <div className="flex items-center gap-3">
        {waiting > 0 && (
          <span data-testid="work-waiting" className="text-sm font-medium text-amber-800">
            {waiting === 1 ? 'Work waiting for you' : `${waiting} steps waiting for you`}
          </span>
        )}
        {unread > 0 && (
          <CountBadge count={unread} unit="unread" testId="unread-count" className="py-0.5" />
        )}
        <CollaborationStatusBadge status={collaboration.status} />
      </div>
    </li>
  );
}
