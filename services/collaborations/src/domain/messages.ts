/**
 * The conversation of a collaboration (docs/product-spec.md
 * "Collaborations"): its parties send messages of 1–2,000 characters, read
 * the history newest first a page at a time, read one message by its id, and
 * mark what they have seen.
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
  type CollaborationMessageRecord,
  type CollaborationRecord,
  type MessagesPage,
} from '@raly/contracts/collaborations';
import type { Caller } from '@raly/service-kit/auth';
import { AppError } from '@raly/service-kit/errors';
import type { LockedCollaboration, SentMessage } from '../data-access/message-repository';
import type { CollaborationsDependencies } from './dependencies';
import { collaborationsErrors } from './errors';
import {
  collaborationConversationUpdatedEvent,
  collaborationSeenMarkedEvent,
  messageSentEvent,
} from './events';
import { collaborationOfParty, withPartyOf } from './parties';

/** Raised under the lock when a brand member's handle is not known yet: the try rolls back. */
class MemberHandleNotKnown extends Error {}

/** Refuses a collaboration that takes no messages (checked under its row lock). */
function assertTakesMessages(collaboration: Pick<CollaborationRecord, 'status'>): void {
  if (collaboration.status === 'cancelled') throw collaborationsErrors.collaborationCancelled();
}

/**
 * `POST /collaborations/:id/messages`: a party sends a message. Who sends,
 * and whether the collaboration takes it, is decided on its row under the
 * lock the message is stored under (one transaction, ../data-access/message-repository).
 * @param input `sendMessageSchema`, unparsed
 * A brand member's message carries their handle in the team
 * (`sender.memberHandle`, docs/product-spec.md §13.2), asked of
 * identity-profile outside the lock the first time a token sends (the try
 * that found it missing rolls back) and remembered like the brand.
 * @returns the stored message, `created` false when its client id was already used
 * @throws AppError invalid-argument (messageRequired, messageTooLong…); not-found
 *   messages.collaborationNotFound; conflict messages.collaborationCancelled;
 *   contact-details messages.contactDetailsNotice (not confirmed); unavailable
 *   when identity-profile cannot be reached
 */
export async function sendMessage(
  dependencies: CollaborationsDependencies,
  caller: Caller,
  collaborationId: string,
  input: unknown,
): Promise<SentMessage> {
  const form = sendMessageSchema.parse(input);
  const message = {
    id: randomUUID(),
    clientId: form.clientId,
    senderId: caller.userId,
    body: form.body,
  };
  const check = (collaboration: LockedCollaboration) => {
    assertTakesMessages(collaboration);
    if (looksLikeContactDetails(form.body) && form.confirmContactDetails !== true)
      throw collaborationsErrors.contactDetails();
  };
  const sendAs = (memberHandle: string | null | undefined) =>
    withPartyOf(dependencies, caller, (partyOf) =>
      dependencies.messages.sendWithEvents(
        collaborationId,
        { ...message, memberHandle },
        {
          sender(collaboration) {
            const party = partyOf(collaboration);
            // The sides' handles are frozen at opening; a member's handle is theirs as they send.
            if (party === 'creator') return { party, handle: collaboration.creatorUsername };
            if (memberHandle === undefined) throw new MemberHandleNotKnown();
            return { party, handle: collaboration.brandUsername, memberHandle };
          },
          check,
        },
        { message: messageSentEvent, collaboration: collaborationConversationUpdatedEvent },
      ),
    );
  let sent: SentMessage | null;
  try {
    sent = await sendAs(dependencies.identity.knownMemberHandleOf(caller.accessToken));
  } catch (error) {
    if (!(error instanceof MemberHandleNotKnown)) throw error;
    sent = await sendAs(await dependencies.identity.memberHandleOf(caller.accessToken));
  }
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
 * `GET /collaborations/messages/:messageId`: one message, read by a party of its
 * collaboration (docs/console.md "Reports": a report of a message names it by its id alone).
 * @param messageId the message's id (a uuid; anything else names no message)
 * @returns the message as the history shows it
 * @throws AppError not-found messages.messageNotFound for an unknown or malformed id and for
 *   anyone who is no party of its collaboration (never told apart); unavailable when
 *   identity-profile cannot be reached
 */
export async function messageOfParty(
  dependencies: CollaborationsDependencies,
  caller: Caller,
  messageId: string,
): Promise<CollaborationMessageRecord> {
  const message = await dependencies.messages.findById(messageId);
  if (!message) throw collaborationsErrors.messageNotFound();
  await collaborationOfParty(dependencies, caller, message.collaborationId).catch((error) => {
    if (error instanceof AppError && error.code === 'not-found')
      throw collaborationsErrors.messageNotFound();
    throw error;
  });
  return message;
}

/**
 * `POST /collaborations/:id/seen`: the caller's side has seen the messages
 * up to `sequence` (never past the last, never back); its unread count
 * follows. Raises `collaborations.collaboration.seen-marked` only when the mark moved.
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
    collaborationSeenMarkedEvent,
  );
  if (!seen) throw collaborationsErrors.collaborationNotFound();
  return seen;
}
