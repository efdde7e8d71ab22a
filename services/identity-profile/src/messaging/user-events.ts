/**
 * The integration events identity-profile publishes (topic
 * `identity.user.v1`, key = user id): the whole UserRecord snapshot with its
 * version, as outbox rows to insert in the changing transaction.
 */
import { eventTypes, topics } from '@raly/contracts/events';
import { userRecordSchema, type UserRecord } from '@raly/contracts/records';
import { newSnapshotOutboxMessage } from '@raly/service-kit/outbox';

export const eventSource = 'raly/identity-profile';

const userEvent = (
  type: typeof eventTypes.userCreated | typeof eventTypes.userUpdated,
  record: UserRecord,
) =>
  newSnapshotOutboxMessage({
    topic: topics.identityUser,
    type,
    source: eventSource,
    schema: userRecordSchema,
    record,
  });

/** The outbox row of `identity.user.created` for a new user's snapshot. */
export const userCreatedEvent = (user: UserRecord) => userEvent(eventTypes.userCreated, user);

/** The outbox row of `identity.user.updated` for a changed user's snapshot. */
export const userUpdatedEvent = (user: UserRecord) => userEvent(eventTypes.userUpdated, user);
