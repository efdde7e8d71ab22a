/**
 * The integration event the notifications service raises: a person's whole
 * inbox snapshot (`InboxRecord`) on `notifications.inbox.v1`, key = the
 * person's user id, with its version, after every change to it.
 */
import { eventTypes, topics } from '@raly/contracts/events';
import { inboxRecordSchema, type InboxRecord } from '@raly/contracts/notifications';
import { snapshotEventOf } from '@raly/service-kit/outbox';

export const eventSource = 'raly/notifications';

/** `notifications.inbox.updated`: items added, one or all read. */
export const inboxUpdatedEvent = snapshotEventOf<InboxRecord>({
  topic: topics.notificationsInbox,
  source: eventSource,
  schema: inboxRecordSchema,
})(eventTypes.inboxUpdated);
