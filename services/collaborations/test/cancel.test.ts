/**
 * Cancelling a collaboration: the brand may cancel without a reason before
 * anything is handed in; otherwise, and the creator always, a reason the
 * other side sees is required. A cancelled collaboration takes no more work
 * and no more messages.
 */
import assert from 'node:assert/strict';
import { beforeAll, describe, test } from 'vitest';
import { messages } from '@raly/contracts/messages';
import type { RalySystem } from '@raly/test-support/system';
import { aMessage, asUser, useCollaborationsSystem } from './support';
import {
  accepted,
  approve,
  assertRefused,
  freshCollaboration,
  registeredWorkUsers,
  workAs,
  type WorkUsers,
} from './work-support';

const harness = useCollaborationsSystem();
let system: RalySystem;
let users: WorkUsers;
const brandWork = () => workAs(system, users.brand.accessToken);
const creatorWork = () => workAs(system, users.creator.accessToken);

beforeAll(async () => {
  system = harness.system;
  users = await registeredWorkUsers(system);
});

describe('cancelling', () => {
  test('when the brand cancels before any submission without a reason, then the collaboration is cancelled by the brand', async () => {
    const collaboration = await freshCollaboration(system, users);

    // Act
    const cancelled = accepted(await brandWork().cancel(collaboration.id));

    // Assert
    assert.equal(cancelled.status, 'cancelled');
    assert.deepEqual(cancelled.cancellation, {
      party: 'brand',
      reason: '',
      cancelledAt: cancelled.timeline.at(-1)!.at,
    });
    assert.deepEqual(cancelled.timeline.at(-1), {
      kind: 'cancelled',
      at: cancelled.cancellation!.cancelledAt,
      party: 'brand',
      deliverableId: null,
    });
    assert.equal(cancelled.version, collaboration.version + 1);
  });

  test('when work was handed in, then the brand must give a reason (400 on the field reason), and with one it cancels', async () => {
    const collaboration = await freshCollaboration(system, users);
    accepted(await creatorWork().submit(collaboration.id, collaboration.deliverables[0]!.id), 201);

    // Act
    const withoutReason = await brandWork().cancel(collaboration.id, { reason: '   ' });
    const cancelled = accepted(
      await brandWork().cancel(collaboration.id, { reason: ' The launch is called off. ' }),
    );

    // Assert
    assertRefused(withoutReason, 400, messages.cancelReasonRequired, 'reason');
    assert.equal(cancelled.cancellation?.party, 'brand');
    assert.equal(cancelled.cancellation?.reason, 'The launch is called off.');
  });

  test('when the creator cancels, then a reason is required even before any submission', async () => {
    const collaboration = await freshCollaboration(system, users);

    // Act
    const withoutReason = await creatorWork().cancel(collaboration.id);
    const tooLong = await creatorWork().cancel(collaboration.id, { reason: 'r'.repeat(501) });
    const cancelled = accepted(
      await creatorWork().cancel(collaboration.id, { reason: 'I fell ill.' }),
    );

    // Assert
    assertRefused(withoutReason, 400, messages.cancelReasonRequired, 'reason');
    assertRefused(tooLong, 400, messages.cancelReasonTooLong, 'reason');
    assert.deepEqual(
      { ...cancelled.cancellation, cancelledAt: typeof cancelled.cancellation?.cancelledAt },
      { party: 'creator', reason: 'I fell ill.', cancelledAt: 'string' },
    );
    // The brand reads the reason too.
    const asBrand = await asUser(system, users.brand.accessToken)<typeof cancelled>(
      'GET',
      `/collaborations/${collaboration.id}`,
    );
    assert.equal(asBrand.body.data?.cancellation?.reason, 'I fell ill.');
  });

  test('when a collaboration is cancelled, then every work action answers 409 collaborationNotActive and messages stay refused', async () => {
    const collaboration = await freshCollaboration(system, users);
    const deliverableId = collaboration.deliverables[0]!.id;
    accepted(await creatorWork().submit(collaboration.id, deliverableId), 201);
    accepted(await creatorWork().cancel(collaboration.id, { reason: 'Plans changed.' }));

    // Act
    const answers = [
      await brandWork().setDeliverables(collaboration.id, { items: [{ title: 'Post' }] }),
      await creatorWork().submit(collaboration.id, deliverableId),
      await brandWork().review(collaboration.id, deliverableId, approve),
      await brandWork().paid(collaboration.id),
      await creatorWork().received(collaboration.id),
      await brandWork().cancel(collaboration.id, { reason: 'Again' }),
      await creatorWork().cancel(collaboration.id, { reason: 'Again' }),
    ];
    const message = await asUser(system, users.brand.accessToken)(
      'POST',
      `/collaborations/${collaboration.id}/messages`,
      aMessage(),
    );

    // Assert
    for (const answer of answers) assertRefused(answer, 409, messages.collaborationNotActive);
    assertRefused(message, 409, messages.collaborationCancelled);
    const { rows } = await system.sql.collaborations!.query<{ version: number; status: string }>(
      'SELECT version, status FROM collaborations WHERE id = $1',
      [collaboration.id],
    );
    assert.deepEqual(rows, [{ version: collaboration.version + 2, status: 'cancelled' }]);
  });
});
