/**
 * Collaborations made the way people make them, through the BFF in front of
 * the real services (./offers-suite with `collaborations: true`): a brand's
 * open offer, a creator's application, the brand's acceptance, and the
 * collaboration services/collaborations opens from that event.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Me } from '@raly/contracts/bff-api';
import type {
  CollaborationMessageRecord,
  CollaborationRecord,
  SendMessage,
} from '@raly/contracts/collaborations';
import type { ApplicationRecord } from '@raly/contracts/offers';
import { eventually } from '@raly/test-support';
import { anApplicationForm, type offersSuite, type TestCreator } from './offers-suite';
import { receivedOf, type RecordingSocket } from './sockets';

type Suite = ReturnType<typeof offersSuite>;
export type TestBrand = Awaited<ReturnType<Suite['aBrand']>>;

/** A message form with a fresh client id; `body` defaults to a plain sentence. */
export const aMessage = (body = 'Hello! When would the first video suit you?'): SendMessage => ({
  clientId: randomUUID(),
  body,
});

export const collaborationPushes = (socket: RecordingSocket, collaborationId: string) =>
  receivedOf(socket, 'collaboration.updated').filter((record) => record.id === collaborationId);
export const messagePushes = (socket: RecordingSocket, collaborationId: string) =>
  receivedOf(socket, 'collaboration.message').filter(
    (message) => message.collaborationId === collaborationId,
  );

/**
 * The creator applies to the brand's new open offer and the brand accepts;
 * waits until the creator's list shows the collaboration that opened.
 * @param before runs once the application is made and before it is accepted (e.g. connect sockets)
 */
export async function anOpenedCollaboration(
  suite: Suite,
  parties: { brand: TestBrand; creator: TestCreator },
  before?: () => Promise<void>,
): Promise<CollaborationRecord> {
  const { brand, creator } = parties;
  const offer = await suite.anOffer(brand);
  const applied = await suite.api<ApplicationRecord>(
    'POST',
    `/api/offers/${offer.id}/applications`,
    { token: creator.accessToken, body: anApplicationForm },
  );
  assert.equal(applied.status, 201, JSON.stringify(applied.body));
  await before?.();
  const accepted = await suite.api<ApplicationRecord>(
    'POST',
    `/api/applications/${applied.body.data.id}/accept`,
    { token: brand.accessToken },
  );
  assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
  return eventually(
    `the collaboration of application ${applied.body.data.id}`,
    async () => {
      const list = await suite.api<CollaborationRecord[]>('GET', '/api/collaborations', {
        token: creator.accessToken,
      });
      return list.body.data?.find((record) => record.applicationId === applied.body.data.id);
    },
    { intervalMs: 250 },
  );
}

/**
 * Sends a message through the BFF and asserts it was recorded (201).
 * @returns the stored message
 */
export async function sent(
  suite: Suite,
  token: string,
  collaborationId: string,
  form: SendMessage = aMessage(),
): Promise<CollaborationMessageRecord> {
  const answer = await suite.api<CollaborationMessageRecord>(
    'POST',
    `/api/collaborations/${collaborationId}/messages`,
    { token, body: form },
  );
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body.data;
}

/**
 * A barrier for "nothing was pushed to this socket": changes the user's
 * marketing setting through the BFF and waits until `socket` has the
 * answered record. A push emitted before reaches a socket before this one.
 */
export async function settleSocket(
  suite: Suite,
  token: string,
  socket: RecordingSocket,
): Promise<void> {
  const me = await suite.api<Me>('GET', '/api/me', { token });
  assert.equal(me.status, 200, JSON.stringify(me.body));
  const { notifications } = me.body.data.user;
  const answer = await suite.api<Me>('PATCH', '/api/me', {
    token,
    body: { notifications: { ...notifications, marketing: !notifications.marketing } },
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const version = answer.body.data.user.version;
  await eventually(`the user record v${version} on the socket`, () =>
    receivedOf(socket, 'user.updated').some((record) => record.version >= version),
  );
}
