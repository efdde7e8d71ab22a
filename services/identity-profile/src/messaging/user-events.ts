/**
 * The integration events identity-profile publishes (topic
 * `identity.user.v1`, key = user id): the whole UserRecord snapshot with its
 * version, as outbox rows to insert in the changing transaction.
 */
import { eventTypes, topics } from '@raly/contracts/events';
import { userRecordSchema, type UserRecord } from '@raly/contracts/records';
import { newOutboxMessage } from '@raly/service-kit/outbox';

export const eventSource = 'raly/identity-profile';

function userEvent(type: typeof eventTypes.userCreated | typeof eventTypes.userUpdated, user: UserRecord) {
  const message = newOutboxMessage({
    topic: topics.identityUser,
    type,
    source: eventSource,
    subject: user.id,
    version: user.version,
    // Validate on the way out: a consumer must never receive a snapshot it cannot parse.
    data: userRecordSchema.parse(user),
  });
  return { ...message, envelope: message.envelope as object };
}

/** The outbox row of `identity.user.created` for a new user's snapshot. */
export const userCreatedEvent = (user: UserRecord) => userEvent(eventTypes.userCreated, user);

/** The outbox row of `identity.user.updated` for a changed user's snapshot. */
export const userUpdatedEvent = (user: UserRecord) => userEvent(eventTypes.userUpdated, user);
