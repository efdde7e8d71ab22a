/**
 * The messages this tab is sending in one conversation: each shows at once
 * (state `sending`), leaves the outbox when the server stored it (the
 * history then shows it, once: lib/collaborations-api merges by `clientId`),
 * or stays as `failed` with the server's text and can be retried with the
 * same `clientId`, so a retry of a send that did reach the server is stored
 * and shown once.
 */
import { useCallback, useState } from 'react';
import { messages } from '@raly/contracts/messages';
import { apiErrorMessage } from '@/lib/api-error';
import { useSendMessageMutation } from '@/features/collaborations/api/collaborations-api';
import type { OutgoingMessage } from '@/features/collaborations/utils/conversation';

/** The BFF's error code for a body that looks like contact details, sent without confirming. */
export const CONTACT_DETAILS_CODE = 'contact-details';

/** What became of one send. */
export type SendOutcome = 'sent' | 'contact-details' | 'failed';

/** A message as the composer hands it over. */
export type Draft = Pick<OutgoingMessage, 'clientId' | 'body' | 'confirmContactDetails'>;

const errorCodeOf = (error: unknown) =>
  (error as { data?: { error?: { code?: unknown } } } | null)?.data?.error?.code;

/**
 * @returns `outgoing` (the messages not yet stored, in the order sent) and
 *   `send(draft)`, which resolves with the outcome and never rejects; a
 *   contact-details refusal takes the message out of the outbox (the
 *   composer asks its author to confirm)
 */
export function useOutbox(collaborationId: string) {
  const [outgoing, setOutgoing] = useState<OutgoingMessage[]>([]);
  const [sendMessage] = useSendMessageMutation();

  const update = useCallback((message: OutgoingMessage | { clientId: string; remove: true }) => {
    setOutgoing((list) => {
      if ('remove' in message) return list.filter((each) => each.clientId !== message.clientId);
      const index = list.findIndex((each) => each.clientId === message.clientId);
      if (index === -1) return [...list, message];
      return list.map((each, at) => (at === index ? message : each));
    });
  }, []);

  const send = useCallback(
    async (draft: Draft): Promise<SendOutcome> => {
      update({ ...draft, state: 'sending' });
      try {
        await sendMessage({
          collaborationId,
          message: {
            clientId: draft.clientId,
            body: draft.body,
            ...(draft.confirmContactDetails ? { confirmContactDetails: true } : {}),
          },
        }).unwrap();
        update({ clientId: draft.clientId, remove: true });
        return 'sent';
      } catch (error) {
        if (errorCodeOf(error) === CONTACT_DETAILS_CODE) {
          update({ clientId: draft.clientId, remove: true });
          return 'contact-details';
        }
        update({
          ...draft,
          state: 'failed',
          problem: apiErrorMessage(error, messages.genericProblem),
        });
        return 'failed';
      }
    },
    [collaborationId, sendMessage, update],
  );

  return { outgoing, send };
}
