/**
 * The integration events the collaborations service raises: the whole
 * CollaborationRecord on `collaborations.collaboration.v1` (key = its id,
 * with its version), and each message on `collaborations.message.v1` keyed
 * by its collaboration's id, so one conversation's messages keep their order
 * on one partition. A use case hands the event it raises to the repository,
 * which builds it from the snapshot its write produced and records it in the
 * same transaction.
 */
import {
  collaborationMessageRecordSchema,
  collaborationRecordSchema,
  type CollaborationMessageRecord,
  type CollaborationRecord,
} from '@raly/contracts/collaborations';
import { eventTypes, topics } from '@raly/contracts/events';
import {
  newSnapshotOutboxMessage,
  snapshotEventOf,
  type RaiseEvent,
} from '@raly/service-kit/outbox';

export const eventSource = 'raly/collaborations';

const collaborationEvent = snapshotEventOf<CollaborationRecord>({
  topic: topics.collaborationsCollaboration,
  source: eventSource,
  schema: collaborationRecordSchema,
});

/** `collaborations.collaboration.opened`: the collaboration an accepted application opened. */
export const collaborationOpenedEvent = collaborationEvent(eventTypes.collaborationOpened);

/**
 * `collaborations.collaboration.updated`: a step of the work (deliverables, payment, a review,
 * cancelling, a sweep).
 */
export const collaborationUpdatedEvent = collaborationEvent(eventTypes.collaborationUpdated);

/**
 * `collaborations.collaboration.conversation-updated`: the same snapshot when a message was
 * counted on it (count, last message time, the other side's unread). Its own type, so a
 * consumer that acts on the work alone (notifications) skips it by its `event-type` header
 * before reading it (at one per message it is most of the topic), and the BFF stores it
 * without pushing it: the tabs count the message they are pushed (its `collaborationVersion`).
 */
export const collaborationConversationUpdatedEvent = collaborationEvent(
  eventTypes.collaborationConversationUpdated,
);

/**
 * `collaborations.collaboration.seen-marked`: the same snapshot when a side's seen mark moved
 * (its `seenSequence` and `unread`); skipped by notifications like the one above, pushed by the
 * BFF to both sides' tabs.
 */
export const collaborationSeenMarkedEvent = collaborationEvent(eventTypes.collaborationSeenMarked);

/**
 * `collaborations.message.sent`: the message (subject its id, version 1: messages never
 * change), keyed by its collaboration's id.
 */
export const messageSentEvent: RaiseEvent<CollaborationMessageRecord> = (message) => ({
  ...newSnapshotOutboxMessage({
    topic: topics.collaborationsMessage,
    type: eventTypes.messageSent,
    source: eventSource,
    schema: collaborationMessageRecordSchema,
    record: message,
  }),
  key: message.collaborationId,
});
