/**
 * The conversation of a collaboration (docs/product-spec.md
 * "Collaborations"): its parties send messages of 1–2,000 characters, read
 * the history newest first a page at a time, and mark what they have seen.
 * A message that looks like it holds an e-mail address or a phone number is
 * sent only once its author confirms the notice; a retried send (the same
 * client-made id) stores nothing new and answers the stored message.
 */
import { randomUUID } from 'node:crypto';
import {
  looksLikeContactDetails,
  markSeenSchema,
  messagesQuerySchema,
  sendMessageSchema,
  type CollaborationRecord,
  type MessagesPage,
} from '@raly/contracts/collaborations';
import type { Caller } from '@raly/service-kit/auth';
import type { SentMessage } from '../data-access/message-repository';
import type { CollaborationsDependencies } from './dependencies';
import { collaborationsErrors } from './errors';
import { collaborationUpdatedEvent, messageSentEvent } from './events';
import { collaborationOfParty } from './parties';

/** Refuses a collaboration that takes no messages (checked under its row lock). */
function assertTakesMessages(collaboration: CollaborationRecord): void {
  if (collaboration.status === 'cancelled') throw collaborationsErrors.collaborationCancelled();
}

/**
 * `POST /collaborations/:id/messages`: a party sends a message.
 * @param input `sendMessageSchema`, unparsed
 * @returns the stored message, `created` false when its client id was already used
 * @throws AppError invalid-argument (messageRequired, messageTooLong…); not-found
 *   messages.collaborationNotFound; conflict messages.collaborationCancelled;
 *   contact-details messages.contactDetailsNotice (not confirmed)
 */
export async function sendMessage(
  dependencies: CollaborationsDependencies,
  caller: Caller,
  collaborationId: string,
  input: unknown,
): Promise<SentMessage> {
  const form = sendMessageSchema.parse(input);
  const { collaboration, party } = await collaborationOfParty(
    dependencies,
    caller,
    collaborationId,
  );
  const stored = await dependencies.messages.findByClientId(collaboration.id, form.clientId);
  if (stored) return { message: stored, created: false };
  assertTakesMessages(collaboration);
  if (looksLikeContactDetails(form.body) && form.confirmContactDetails !== true)
    throw collaborationsErrors.contactDetails();
  const sent = await dependencies.messages.sendWithEvents(
    collaboration.id,
    {
      id: randomUUID(),
      clientId: form.clientId,
      senderParty: party,
      senderId: caller.userId,
      // Frozen at opening, so the handle read before the lock is the one under it.
      senderHandle:
        party === 'brand' ? collaboration.brand.username : collaboration.creator.username,
      body: form.body,
    },
    assertTakesMessages,
    { message: messageSentEvent, collaboration: collaborationUpdatedEvent },
  );
  if (!sent) throw collaborationsErrors.collaborationNotFound();
  return sent;
}

/**
 * `GET /collaborations/:id/messages?before=&limit=`: a page of the history, newest first.
 * @param query `messagesQuerySchema`, unparsed
 * @throws AppError invalid-argument, not-found messages.collaborationNotFound
 */
export async function messageHistory(
  dependencies: CollaborationsDependencies,
  caller: Caller,
  collaborationId: string,
  query: unknown,
): Promise<MessagesPage> {
  const { before, limit } = messagesQuerySchema.parse(query);
  const { collaboration } = await collaborationOfParty(dependencies, caller, collaborationId);
  return dependencies.messages.page(collaboration.id, before, limit);
}

/**
 * `POST /collaborations/:id/seen`: the caller's side has seen the messages
 * up to `sequence` (never past the last, never back); its unread count
 * follows. Raises `collaborations.collaboration.updated` only when the mark moved.
 * @param input `markSeenSchema`, unparsed
 * @returns the collaboration after the change
 * @throws AppError invalid-argument, not-found messages.collaborationNotFound
 */
export async function markSeen(
  dependencies: CollaborationsDependencies,
  caller: Caller,
  collaborationId: string,
  input: unknown,
): Promise<CollaborationRecord> {
  const { sequence } = markSeenSchema.parse(input);
  const { collaboration, party } = await collaborationOfParty(
    dependencies,
    caller,
    collaborationId,
  );
  const seen = await dependencies.collaborations.markSeenWithEvent(
    collaboration.id,
    party,
    sequence,
    collaborationUpdatedEvent,
  );
  if (!seen) throw collaborationsErrors.collaborationNotFound();
  return seen;
}
