/**
 * A collaboration's work through the BFF, in front of the real services
 * (./support/offers-suite): every work route as the side it belongs to, the
 * other side (403), another creator or brand (404) and a visitor (401); a
 * submission, a change request, a resubmission, the approval and the payment,
 * each answered snapshot pushed at once to every tab of both parties and to
 * nobody else; cancelling; the submission rate limit; nobody's first name,
 * last name or e-mail in any answer or push.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'vitest';
import type { CollaborationRecord } from '@raly/contracts/collaborations';
import { messages } from '@raly/contracts/messages';
import { eventually } from '@raly/test-support';
import {
  anOpenedCollaboration,
  collaborationPushes,
  settleSocket,
  type TestBrand,
} from './support/collaborations';
import { daysFromNow, offersSuite, type TestCreator } from './support/offers-suite';
import type { RecordingSocket } from './support/sockets';

const suite = offersSuite({ collaborations: true, tight: true });
const { api, live, aBrand, onboardedCreator, seen } = suite;

type Side = 'brand' | 'creator';

interface WorkRoute {
  method: 'PUT' | 'POST';
  path: string;
  body: unknown;
  /** Who may call it; `either` for cancelling. */
  side: Side | 'either';
}

/** A submission form with a unique link. */
const aSubmission = (note = 'The first cut, as agreed.') => ({
  link: `https://video.example/${randomUUID()}`,
  note,
});

/** Every work route of the collaboration with a valid body; the deliverable routes for `deliverableId`. */
const workRoutes = (collaborationId: string, deliverableId: string): WorkRoute[] => {
  const base = `/api/collaborations/${collaborationId}`;
  const deliverable = `${base}/deliverables/${deliverableId}`;
  return [
    {
      method: 'PUT',
      path: `${base}/deliverables`,
      body: { items: [{ title: 'One video' }] },
      side: 'brand',
    },
    { method: 'POST', path: `${deliverable}/submissions`, body: aSubmission(), side: 'creator' },
    { method: 'POST', path: `${deliverable}/review`, body: { decision: 'approve' }, side: 'brand' },
    { method: 'POST', path: `${base}/payment/paid`, body: { reference: 'INV-1' }, side: 'brand' },
    { method: 'POST', path: `${base}/payment/received`, body: {}, side: 'creator' },
    { method: 'POST', path: `${base}/cancel`, body: { reason: 'Plans changed.' }, side: 'either' },
  ];
};

/** A collaboration of a new brand and creator, and a creator and a brand who are no party of it. */
async function aCollaborationAndStrangers() {
  const brand = await aBrand();
  const creator = await onboardedCreator(['Gaming']);
  const otherCreator = await onboardedCreator(['Gaming']);
  const otherBrand = await aBrand();
  const collaboration = await anOpenedCollaboration(suite, { brand, creator });
  return { brand, creator, otherCreator, otherBrand, collaboration };
}

/** Keeps a socket's collaboration pushes for the privacy sweep. */
const sweep = (...sockets: RecordingSocket[]) => {
  for (const socket of sockets)
    seen.push({
      what: 'socket events',
      body: socket.received.filter(([event]) => event.startsWith('collaboration.')),
    });
};

describe('the work of a collaboration through the BFF', () => {
  test("when a party calls a work route of the other side, then it answers 403 'Only the brand can do this.' or 'Only the creator can do this.' and the collaboration is unchanged", async () => {
    // Arrange
    const { brand, creator, collaboration } = await aCollaborationAndStrangers();
    const deliverableId = collaboration.deliverables[0]!.id;
    const tokens: Record<Side, string> = {
      brand: brand.accessToken,
      creator: creator.accessToken,
    };

    for (const route of workRoutes(collaboration.id, deliverableId)) {
      if (route.side === 'either') continue;
      const wrongSide: Side = route.side === 'brand' ? 'creator' : 'brand';

      // Act
      const answer = await api(route.method, route.path, {
        token: tokens[wrongSide],
        body: route.body,
      });

      // Assert
      const expected =
        route.side === 'brand' ? messages.onlyTheBrandCan : messages.onlyTheCreatorCan;
      assert.equal(answer.status, 403, `${route.path}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.error.message, expected, route.path);
    }
    const after = await api<CollaborationRecord>('GET', `/api/collaborations/${collaboration.id}`, {
      token: creator.accessToken,
    });
    assert.equal(after.body.data.version, collaboration.version);
    assert.deepEqual(after.body.data.deliverables, collaboration.deliverables);
  });

  test("when another creator or another brand's member calls any work route, then each answers 404 'This collaboration does not exist.'", async () => {
    // Arrange
    const { otherCreator, otherBrand, collaboration } = await aCollaborationAndStrangers();
    const routes = workRoutes(collaboration.id, collaboration.deliverables[0]!.id);

    for (const stranger of [otherCreator, otherBrand])
      for (const route of routes) {
        // Act
        const answer = await api(route.method, route.path, {
          token: stranger.accessToken,
          body: route.body,
        });

        // Assert
        assert.equal(answer.status, 404, `${route.path}: ${JSON.stringify(answer.body)}`);
        assert.equal(answer.body.error.message, messages.collaborationNotFound, route.path);
      }
  });

  test("when a party names a deliverable that does not exist or ids that are no uuid, then it answers 404 'This deliverable does not exist.' or 'This collaboration does not exist.'", async () => {
    // Arrange
    const { brand, creator, collaboration } = await aCollaborationAndStrangers();
    const base = `/api/collaborations/${collaboration.id}/deliverables`;

    // Act
    const unknownSubmission = await api('POST', `${base}/${randomUUID()}/submissions`, {
      token: creator.accessToken,
      body: aSubmission(),
    });
    const unknownReview = await api('POST', `${base}/${randomUUID()}/review`, {
      token: brand.accessToken,
      body: { decision: 'approve' },
    });
    const malformed = await api('POST', '/api/collaborations/not-a-uuid/payment/received', {
      token: creator.accessToken,
    });

    // Assert
    for (const answer of [unknownSubmission, unknownReview]) {
      assert.equal(answer.status, 404, JSON.stringify(answer.body));
      assert.equal(answer.body.error.message, messages.deliverableNotFound);
    }
    assert.equal(malformed.status, 404, JSON.stringify(malformed.body));
    assert.equal(malformed.body.error.message, messages.collaborationNotFound);
  });

  test('when a visitor without a token calls any work route, then each answers 401', async () => {
    // Arrange
    const { collaboration } = await aCollaborationAndStrangers();

    for (const route of workRoutes(collaboration.id, collaboration.deliverables[0]!.id)) {
      // Act
      const answer = await api(route.method, route.path, { body: route.body });

      // Assert
      assert.equal(answer.status, 401, `${route.path}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.error.code, 'unauthenticated');
    }
  });

  test("when the work is set, handed in, sent back, handed in again, approved, paid and confirmed, then each answer reaches every tab of both parties at once and no other creator's or brand's socket", async () => {
    // Arrange
    const { brand, creator, otherCreator, otherBrand, collaboration } =
      await aCollaborationAndStrangers();
    const base = `/api/collaborations/${collaboration.id}`;
    const partySockets = [
      await live(brand.accessToken),
      await live(creator.accessToken),
      await live(creator.accessToken),
    ];
    const strangerSockets = [
      await live(otherCreator.accessToken),
      await live(otherBrand.accessToken),
    ];
    /** One action through the BFF; asserts its status and that both parties' tabs got the answer. */
    const step = async (
      party: TestBrand | TestCreator,
      path: string,
      request: { method?: 'PUT' | 'POST'; body?: unknown; status?: number } = {},
    ): Promise<CollaborationRecord> => {
      const answer = await api<CollaborationRecord>(request.method ?? 'POST', `${base}${path}`, {
        token: party.accessToken,
        body: request.body,
      });
      assert.equal(answer.status, request.status ?? 200, `${path}: ${JSON.stringify(answer.body)}`);
      const record = answer.body.data;
      for (const socket of partySockets) {
        const pushed = await eventually(`${path} v${record.version} pushed`, () =>
          collaborationPushes(socket, collaboration.id).find(
            (candidate) => candidate.version === record.version,
          ),
        );
        assert.deepEqual(pushed, record);
      }
      return record;
    };

    // Act and Assert, step by step
    const set = await step(brand, '/deliverables', {
      method: 'PUT',
      body: { items: [{ title: 'One launch video', dueAt: daysFromNow(10) }] },
    });
    assert.deepEqual(
      set.deliverables.map(({ title, status }) => ({ title, status })),
      [{ title: 'One launch video', status: 'pending' }],
    );
    const deliverable = `/deliverables/${set.deliverables[0]!.id}`;

    const first = await step(creator, `${deliverable}/submissions`, {
      body: aSubmission(),
      status: 201,
    });
    assert.equal(first.deliverables[0]!.status, 'submitted');
    assert.ok(first.deliverables[0]!.reviewDueAt, 'a submitted deliverable has a review due date');

    const sentBack = await step(brand, `${deliverable}/review`, {
      body: { decision: 'request_changes', comment: 'Show the app in the first ten seconds.' },
    });
    assert.equal(sentBack.deliverables[0]!.status, 'changes_requested');
    assert.equal(sentBack.deliverables[0]!.changeRequests, 1);

    const second = await step(creator, `${deliverable}/submissions`, {
      body: aSubmission('Recut with the app first.'),
      status: 201,
    });
    assert.deepEqual(
      second.deliverables[0]!.submissions.map((submission) => submission.round),
      [1, 2],
    );

    const approved = await step(brand, `${deliverable}/review`, { body: { decision: 'approve' } });
    assert.equal(approved.deliverables[0]!.status, 'approved');
    assert.equal(approved.payment.status, 'due');

    const paid = await step(brand, '/payment/paid', { body: { reference: 'INV-42' } });
    assert.equal(paid.payment.status, 'paid');
    assert.equal(paid.payment.reference, 'INV-42');

    const completed = await step(creator, '/payment/received');
    assert.equal(completed.payment.status, 'confirmed');
    assert.equal(completed.status, 'completed');
    assert.deepEqual(
      completed.timeline.map((entry) => entry.kind),
      [
        'opened',
        'deliverables_set',
        'submitted',
        'changes_requested',
        'submitted',
        'approved',
        'payment_due',
        'paid',
        'payment_confirmed',
        'completed',
      ],
    );

    // Assert: strangers got nothing
    await settleSocket(suite, otherCreator.accessToken, strangerSockets[0]!);
    await settleSocket(suite, otherBrand.accessToken, strangerSockets[1]!);
    for (const stranger of strangerSockets)
      assert.deepEqual(collaborationPushes(stranger, collaboration.id), []);
    sweep(...partySockets, ...strangerSockets);
  });

  test("when the creator cancels without a reason, then it answers 400 'Give a reason for cancelling'; the brand may before any submission, and then every work route answers 409 'This collaboration is no longer active.'", async () => {
    // Arrange
    const { brand, creator, collaboration } = await aCollaborationAndStrangers();
    const base = `/api/collaborations/${collaboration.id}`;
    const brandSocket = await live(brand.accessToken);

    // Act
    const noReason = await api('POST', `${base}/cancel`, {
      token: creator.accessToken,
      body: {},
    });
    const cancelled = await api<CollaborationRecord>('POST', `${base}/cancel`, {
      token: brand.accessToken,
      body: {},
    });
    const afterwards: { route: WorkRoute; answer: Awaited<ReturnType<typeof api>> }[] = [];
    for (const route of workRoutes(collaboration.id, collaboration.deliverables[0]!.id)) {
      const token = route.side === 'creator' ? creator.accessToken : brand.accessToken;
      afterwards.push({
        route,
        answer: await api(route.method, route.path, { token, body: route.body }),
      });
    }

    // Assert
    assert.equal(noReason.status, 400, JSON.stringify(noReason.body));
    assert.equal(noReason.body.error.fields?.reason, messages.cancelReasonRequired);
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.equal(cancelled.body.data.status, 'cancelled');
    assert.equal(cancelled.body.data.cancellation?.party, 'brand');
    const pushed = await eventually('the cancelled collaboration pushed', () =>
      collaborationPushes(brandSocket, collaboration.id).find(
        (record) => record.status === 'cancelled',
      ),
    );
    assert.equal(pushed.version, cancelled.body.data.version);
    for (const { route, answer } of afterwards) {
      assert.equal(answer.status, 409, `${route.path}: ${JSON.stringify(answer.body)}`);
      assert.equal(answer.body.error.message, messages.collaborationNotActive, route.path);
    }
    sweep(brandSocket);
  });

  test("when the brand sends an empty list of deliverables, then it answers 400 'Add at least one deliverable' and the list stays", async () => {
    // Arrange
    const { brand, collaboration } = await aCollaborationAndStrangers();
    const path = `/api/collaborations/${collaboration.id}/deliverables`;

    // Act
    const empty = await api('PUT', path, { token: brand.accessToken, body: { items: [] } });
    const after = await api<CollaborationRecord>('GET', `/api/collaborations/${collaboration.id}`, {
      token: brand.accessToken,
    });

    // Assert
    assert.equal(empty.status, 400, JSON.stringify(empty.body));
    assert.equal(empty.body.error.fields?.items, messages.deliverablesRequired);
    assert.deepEqual(after.body.data.deliverables, collaboration.deliverables);
  });

  test('when a creator hands in more than RATE_LIMIT_SUBMIT_DELIVERABLE_PER_USER allows, then the next answers 429 with Retry-After and records nothing, while the brand still reviews', async () => {
    // Arrange: the tight BFF allows 2 submissions per user and hour
    const { brand, creator, collaboration } = await aCollaborationAndStrangers();
    const on = suite.tightBff;
    const base = `/api/collaborations/${collaboration.id}`;
    const set = await api<CollaborationRecord>('PUT', `${base}/deliverables`, {
      token: brand.accessToken,
      body: { items: [{ title: 'A video' }, { title: 'A post' }, { title: 'A story' }] },
      on,
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const [video, post, story] = set.body.data.deliverables.map((deliverable) => deliverable.id);
    for (const id of [video, post]) {
      const answer = await api('POST', `${base}/deliverables/${id}/submissions`, {
        token: creator.accessToken,
        body: aSubmission(),
        on,
      });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
    }

    // Act (fetch: its headers are read too)
    const third = await fetch(`${on.url}${base}/deliverables/${story}/submissions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${creator.accessToken}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(aSubmission()),
    });
    const refusal = (await third.json()) as { error: { code: string; message: string } };
    seen.push({ what: 'the refused submission', body: refusal });
    const review = await api('POST', `${base}/deliverables/${video}/review`, {
      token: brand.accessToken,
      body: { decision: 'approve' },
      on,
    });
    const after = await api<CollaborationRecord>('GET', base, { token: creator.accessToken, on });

    // Assert
    assert.equal(third.status, 429, JSON.stringify(refusal));
    assert.equal(refusal.error.code, 'resource-exhausted');
    assert.match(refusal.error.message, /^Too many attempts\. Please try again in \d+ minutes?\.$/);
    const retryAfter = Number(third.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
    assert.equal(review.status, 200, JSON.stringify(review.body));
    assert.deepEqual(
      after.body.data.deliverables.map((deliverable) => deliverable.status),
      ['approved', 'submitted', 'pending'],
    );
  });
});

describe('privacy', () => {
  test('when every answer, error and collaboration push of this file is read, then none carries a first name, last name or e-mail', () => {
    suite.assertNothingPrivateSeen(40);
  });
});
