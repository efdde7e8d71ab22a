/**
 * Who may act on a collaboration's work: each route as the creator, a member
 * of the brand, another creator, another brand's member and a visitor. The
 * side a route belongs to succeeds; the other side is told only that side
 * can (403); strangers are told it does not exist (404); a visitor is
 * refused (401). Unknown and malformed ids answer 404.
 */
import assert from 'node:assert/strict';
import { beforeAll, describe, test } from 'vitest';
import type { CollaborationRecord } from '@raly/contracts/collaborations';
import { messages } from '@raly/contracts/messages';
import type { RalySystem } from '@raly/test-support/system';
import { useCollaborationsSystem } from './support';
import {
  accepted,
  approve,
  aSubmission,
  assertRefused,
  freshCollaboration,
  registeredWorkUsers,
  workAs,
  type WorkUsers,
} from './work-support';

const harness = useCollaborationsSystem();
let system: RalySystem;
let users: WorkUsers;

beforeAll(async () => {
  system = harness.system;
  users = await registeredWorkUsers(system);
});

type Work = ReturnType<typeof workAs>;
/** A work route: its side, and the call that succeeds for that side on `state`. */
interface Route {
  name: string;
  side: 'brand' | 'creator';
  call: (work: Work, collaboration: CollaborationRecord) => ReturnType<Work['paid']>;
}

/** Every work route in an order that succeeds on one collaboration, each as its own side. */
const routes: Route[] = [
  {
    name: 'PUT deliverables',
    side: 'brand',
    call: (work, { id }) => work.setDeliverables(id, { items: [{ title: 'Launch video' }] }),
  },
  {
    name: 'POST submissions',
    side: 'creator',
    call: (work, { id, deliverables }) => work.submit(id, deliverables[0]!.id, aSubmission()),
  },
  {
    name: 'POST review',
    side: 'brand',
    call: (work, { id, deliverables }) => work.review(id, deliverables[0]!.id, approve),
  },
  { name: 'POST payment/paid', side: 'brand', call: (work, { id }) => work.paid(id, {}) },
  { name: 'POST payment/received', side: 'creator', call: (work, { id }) => work.received(id) },
];

describe('the work routes', () => {
  test('when each route is called by the other side, a stranger and a visitor, then 403, 404 and 401; by its own side, then it succeeds', async () => {
    let collaboration = await freshCollaboration(system, users);
    for (const route of routes) {
      const own = route.side === 'brand' ? users.brand : users.creator;
      const other = route.side === 'brand' ? users.creator : users.brand;

      // Act
      const byOtherSide = await route.call(workAs(system, other.accessToken), collaboration);
      const byStrangers = await Promise.all(
        [users.otherBrand, users.otherCreator].map((stranger) =>
          route.call(workAs(system, stranger.accessToken), collaboration),
        ),
      );
      const byVisitor = await route.call(workAs(system, undefined), collaboration);
      const byOwnSide = await route.call(workAs(system, own.accessToken), collaboration);

      // Assert
      assertRefused(
        byOtherSide,
        403,
        route.side === 'brand' ? messages.onlyTheBrandCan : messages.onlyTheCreatorCan,
      );
      for (const answer of byStrangers) assertRefused(answer, 404, messages.collaborationNotFound);
      assert.equal(byVisitor.status, 401, route.name);
      assert.equal(byVisitor.body.error?.code, 'unauthenticated');
      collaboration = accepted(byOwnSide, route.name === 'POST submissions' ? 201 : 200);
    }
    assert.equal(collaboration.status, 'completed');
    // Nothing the refused callers asked changed anything: one version per successful route.
    assert.equal(collaboration.version, 1 + routes.length);
  });

  test('when either side cancels a stranger’s collaboration, or a visitor does, then 404 and 401', async () => {
    const collaboration = await freshCollaboration(system, users);

    // Act
    const byStrangers = await Promise.all(
      [users.otherBrand, users.otherCreator].map((stranger) =>
        workAs(system, stranger.accessToken).cancel(collaboration.id, { reason: 'Mine now' }),
      ),
    );
    const byVisitor = await workAs(system, undefined).cancel(collaboration.id, { reason: 'x' });

    // Assert
    for (const answer of byStrangers) assertRefused(answer, 404, messages.collaborationNotFound);
    assert.equal(byVisitor.status, 401);
  });

  test('when a party names an unknown collaboration or an id that is not a uuid, then every work route answers 404 collaborationNotFound', async () => {
    const real = await freshCollaboration(system, users);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', `${real.id}x`]) {
      const missing = { ...real, id };
      for (const route of [
        ...routes,
        { side: 'creator', call: (work: Work) => work.cancel(id, { reason: 'x' }) },
      ]) {
        const own = route.side === 'brand' ? users.brand : users.creator;

        // Act
        const answer = await route.call(workAs(system, own.accessToken), missing);

        // Assert
        assertRefused(answer, 404, messages.collaborationNotFound);
      }
    }
  });
});
