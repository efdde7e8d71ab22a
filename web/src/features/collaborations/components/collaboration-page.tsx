/**
 * /collaborations/:id: one collaboration as its party sees it: the offer's
 * title and the other side (public names only), the status, the
 * deliverables and their reviews, the conversation with its composer, the
 * payment, the terms and the timeline, and once completed both sides'
 * reviews, with only the actions the viewer's
 * side may take now, all live in every tab of both parties. The
 * conversation is marked seen while it is on screen.
 */
import { Link } from 'react-router-dom';
import type { Me } from '@raly/contracts/bff-api';
import type { CollaborationParty, CollaborationRecord } from '@raly/contracts/collaborations';
import { messages } from '@raly/contracts/messages';
import { paths } from '@/config/paths';
import { sideOf } from '@/lib/collaboration-live';
import { formatDate } from '@/lib/offer-format';
import { Avatar } from '@/components/ui/avatar';
import { BackLink } from '@/components/ui/back-link';
import { focusRing } from '@/components/ui/button';
import { Notification } from '@/components/ui/notification';
import { PageHeading } from '@/components/ui/page-heading';
import { QueryResult } from '@/components/ui/query-result';
import {
  useGetCollaborationQuery,
  useGetMessagesInfiniteQuery,
} from '@/features/collaborations/api/collaborations-api';
import { CollaborationStatusBadge } from '@/features/collaborations/components/collaboration-status-badge';
import { MessageComposer } from '@/features/collaborations/components/message-composer';
import { MessageList } from '@/features/collaborations/components/message-list';
import { CancelCollaboration } from '@/features/collaborations/components/cancel-collaboration-dialog';
import { DeliverablesPanel } from '@/features/collaborations/components/deliverables-panel';
import { PaymentPanel } from '@/features/collaborations/components/payment-panel';
import { ReviewsPanel } from '@/features/collaborations/components/reviews-panel';
import { TermsPanel } from '@/features/collaborations/components/terms-panel';
import { TimelinePanel } from '@/features/collaborations/components/timeline-panel';
import { useMarkSeen } from '@/features/collaborations/hooks/use-mark-seen';
import { useOutbox } from '@/features/collaborations/hooks/use-outbox';
import {
  lastSeenOwnSequence,
  messagesOf,
  otherSide,
  stillOutgoing,
} from '@/features/collaborations/utils/conversation';
import { counterpartOf } from '@/features/collaborations/utils/counterpart';
import { cancelReasonRequired } from '@/features/collaborations/utils/work';

/**
 * One collaboration as `me` sees it.
 * @param ownHandle the reader's handle in their brand's team (null: none, or a creator)
 */
export function CollaborationPage({
  id,
  me,
  ownHandle = null,
}: {
  id: string;
  me: Me;
  ownHandle?: string | null;
}) {
  return (
    <QueryResult result={useGetCollaborationQuery(id)} fallback={messages.collaborationNotFound}>
      {(collaboration) => {
        const side = sideOf(collaboration, me.user);
        return side ? (
          <CollaborationView collaboration={collaboration} side={side} ownHandle={ownHandle} />
        ) : (
          <div className="mx-auto max-w-2xl px-4 py-10">
            <Notification>{messages.collaborationNotFound}</Notification>
          </div>
        );
      }}
    </QueryResult>
  );
}

function CollaborationView({
  collaboration,
  side,
  ownHandle,
}: {
  collaboration: CollaborationRecord;
  side: CollaborationParty;
  ownHandle: string | null;
}) {
  const counterpart = counterpartOf(collaboration, side);
  return (
    <section className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <BackLink to={paths.collaborations.path}>All collaborations</BackLink>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <PageHeading>{collaboration.offer.title}</PageHeading>
        <CollaborationStatusBadge status={collaboration.status} />
      </div>
      <div className="mt-3 flex items-center gap-3">
        <span className="text-sm text-slate-600">With</span>
        <Avatar src={counterpart.profileImg} name={counterpart.name} className="size-8 text-xs" />
        <Link
          to={counterpart.profilePath}
          className={`rounded text-sm font-medium text-slate-900 hover:text-indigo-700 ${focusRing}`}
        >
          {counterpart.name}
        </Link>
      </div>
      <Outcome collaboration={collaboration} side={side} />
      <div className="mt-8 grid gap-8 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-8">
          {collaboration.status === 'completed' && (
            <ReviewsPanel collaboration={collaboration} side={side} />
          )}
          <DeliverablesPanel collaboration={collaboration} side={side} />
          <Conversation collaboration={collaboration} side={side} ownHandle={ownHandle} />
        </div>
        <div className="space-y-8">
          <PaymentPanel collaboration={collaboration} side={side} />
          <TermsPanel terms={collaboration.terms} />
          <TimelinePanel collaboration={collaboration} />
          {collaboration.status === 'active' && (
            <CancelCollaboration
              collaborationId={collaboration.id}
              reasonRequired={cancelReasonRequired(collaboration, side)}
            />
          )}
        </div>
      </div>
    </section>
  );
}

/** How an ended collaboration ended: completed, or cancelled by whom and why. */
function Outcome({
  collaboration,
  side,
}: {
  collaboration: CollaborationRecord;
  side: CollaborationParty;
}) {
  const { cancellation } = collaboration;
  if (collaboration.status === 'completed')
    return (
      <div className="mt-6">
        <Notification kind="success">
          Completed: every deliverable is approved and the payment is settled.
        </Notification>
      </div>
    );
  if (collaboration.status !== 'cancelled' || !cancellation) return null;
  const who = cancellation.party === side ? 'You' : `The ${cancellation.party}`;
  return (
    <div className="mt-6 rounded-md bg-slate-100 px-4 py-3 text-sm text-slate-800 ring-1 ring-slate-200 ring-inset">
      <p>
        {who} cancelled this collaboration on {formatDate(cancellation.cancelledAt)}
        {cancellation.reason ? ':' : '.'}
      </p>
      {cancellation.reason && <p className="mt-1 whitespace-pre-line">“{cancellation.reason}”</p>}
    </div>
  );
}

function Conversation({
  collaboration,
  side,
  ownHandle,
}: {
  collaboration: CollaborationRecord;
  side: CollaborationParty;
  ownHandle: string | null;
}) {
  const history = useGetMessagesInfiniteQuery(collaboration.id);
  const { outgoing, send } = useOutbox(collaboration.id);
  const stored = messagesOf(history.data);
  // Only the other side's messages count as unread: the reader's own need no seen mark.
  const newestReceived = stored.findLast((message) => message.sender.party !== side)?.sequence ?? 0;
  useMarkSeen(collaboration.id, collaboration.seenSequence[side], newestReceived);
  const seen = lastSeenOwnSequence(stored, side, collaboration.seenSequence[otherSide(side)]);

  return (
    <section
      aria-labelledby="conversation-heading"
      className="flex flex-col rounded-lg bg-white shadow-sm ring-1 ring-slate-200"
    >
      <h2
        id="conversation-heading"
        className="border-b border-slate-200 px-4 py-3 text-lg font-semibold text-slate-900"
      >
        Conversation
      </h2>
      <QueryResult result={history} fallback={messages.genericProblem} framed={false}>
        {() => (
          <MessageList
            messages={stored}
            outgoing={stillOutgoing(outgoing, stored)}
            side={side}
            ownHandle={ownHandle}
            seenSequence={seen}
            olderPages={{
              has: history.hasNextPage,
              loading: history.isFetchingNextPage,
              load: () => void history.fetchNextPage(),
            }}
            onRetry={(message) => void send(message)}
          />
        )}
      </QueryResult>
      {collaboration.status === 'cancelled' ? (
        <div className="border-t border-slate-200 p-4">
          <p className="text-sm text-slate-600">{messages.collaborationCancelled}</p>
        </div>
      ) : (
        <MessageComposer onSend={send} />
      )}
    </section>
  );
}
