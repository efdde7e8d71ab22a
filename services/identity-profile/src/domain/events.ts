/**
 * The integration events identity-profile raises (topic `identity.user.v1`,
 * key = user id): the whole UserRecord snapshot with its version. Each use
 * case that changes a user names the event it raises by handing one of these
 * to the repository (`dependencies.users.updateWithEvent(id, changes,
 * userUpdatedEvent)`); the repository calls it with the snapshot its write
 * produced and inserts the outbox row in the same transaction.
 */
import { eventTypes, topics } from '@raly/contracts/events';
import { userRecordSchema, type UserRecord } from '@raly/contracts/records';
import { newSnapshotOutboxMessage, type RaiseEvent } from '@raly/service-kit/outbox';

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

/** `identity.user.created`: a new user's snapshot. */
export const userCreatedEvent: RaiseEvent<UserRecord> = (user) =>
  userEvent(eventTypes.userCreated, user);

/** `identity.user.updated`: a changed user's snapshot. */
export const userUpdatedEvent: RaiseEvent<UserRecord> = (user) =>
  userEvent(eventTypes.userUpdated, user);
