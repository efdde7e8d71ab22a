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
import { snapshotEventOf } from '@raly/service-kit/outbox';

export const eventSource = 'raly/identity-profile';

const userEvent = snapshotEventOf<UserRecord>({
  topic: topics.identityUser,
  source: eventSource,
  schema: userRecordSchema,
});

/** `identity.user.created`: a new user's snapshot. */
export const userCreatedEvent = userEvent(eventTypes.userCreated);

/** `identity.user.updated`: a changed user's snapshot. */
export const userUpdatedEvent = userEvent(eventTypes.userUpdated);
