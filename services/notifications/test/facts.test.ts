/**
 * Who is told of what: an opened offer reaches the onboarded creators of its
 * interests whose offer notifications are on (in bounded batches), nobody
 * else; applications tell the brand's members or the applicant; the
 * collaboration's timeline and messages tell the side they concern. A
 * redelivered event tells nobody twice, and no item carries a name, an
 * e-mail, a phone number or a message's text.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test, beforeAll } from 'vitest';
import type { Deliverable } from '@raly/contracts/collaboration-work';
import { eventTypes } from '@raly/contracts/events';
import { eventually } from '@raly/test-support';
import type { RalySystem } from '@raly/test-support/system';
import {
  aBrandMember,
  aCollaboration,
  aCreator,
  anApplication,
  anEntry,
  anOpenOffer,
  applicationEvent,
  collaborationEvent,
  inboxSnapshotsOf,
  itemsOf,
  messageEvent,
  offerEvent,
  publish,
  useNotificationsSystem,
  userEvent,
} from './support';

// Batches of two: an announcement to five creators takes three transactions. The review
// reminders' sweep runs every 100 ms and reminds 24 hours ahead (the default).
const harness = useNotificationsSystem({
  env: { NOTIFICATIONS_ANNOUNCE_BATCH: '2', NOTIFICATIONS_SWEEP_MS: '100' },
});
let system: RalySystem;

beforeAll(() => {
  system = harness.system;
});

describe('an opened offer', () => {
  test('when an offer opens, then every creator of its interests who wants offers gets one item, in batches, and nobody else', async () => {
    // Arrange
    const brandId = randomUUID();
    const wanting = Array.from({ length: 5 }, () => aCreator({ interests: ['AI', 'Gaming'] }));
    const otherInterest = aCreator({ interests: ['Sports'] });
    const switchedOff = aCreator({ notifications: { offers: false, marketing: true } });
    const notOnboarded = aCreator({
      onboarding: { terms: true, interests: true, connects: false, wallet: false },
    });
    const member = aBrandMember(brandId);
    await publish(
      system,
      ...[...wanting, otherInterest, switchedOff, notOnboarded, member].map(userEvent),
    );
    const offer = anOpenOffer(brandId, { interests: ['AI', 'Fashion'] });

    // Act
    await publish(system, offerEvent(offer));

    // Assert
    for (const creator of wanting) {
      const items = await itemsOf(system, creator.id);
      assert.equal(items.length, 1, `creator ${creator.id}`);
      assert.equal(items[0]!.kind, 'offer_matched');
      assert.equal(items[0]!.title, offer.title);
      assert.equal(items[0]!.counterpart, offer.brand.company);
      assert.equal(items[0]!.offer_id, offer.id);
    }
    for (const other of [otherInterest, switchedOff, notOnboarded, member])
      assert.deepEqual(await itemsOf(system, other.id), [], `nobody else: ${other.id}`);
  });

  test('when the offer is delivered again or updated while open, then nobody is told twice', async () => {
    // Arrange
    const creator = aCreator();
    await publish(system, userEvent(creator));
    const offer = anOpenOffer(randomUUID());
    const envelopeId = randomUUID();
    await publish(system, { ...offerEvent(offer), envelopeId });

    // Act
    await publish(
      system,
      { ...offerEvent(offer), envelopeId },
      offerEvent({ ...offer, version: offer.version + 1, title: `${offer.title} (edited)` }),
    );

    // Assert
    assert.equal((await itemsOf(system, creator.id)).length, 1);
    assert.deepEqual(
      inboxSnapshotsOf(harness, creator.id).map((inbox) => [inbox.version, inbox.unread]),
      [[1, 1]],
    );
  });

  test('when a creator turns offer notifications off, then the next offer of their interests tells them nothing', async () => {
    // Arrange
    const creator = aCreator();
    await publish(system, userEvent(creator));
    await publish(
      system,
      userEvent({ ...creator, version: 2, notifications: { offers: false, marketing: false } }),
    );

    // Act
    await publish(system, offerEvent(anOpenOffer(randomUUID())));

    // Assert
    assert.deepEqual(await itemsOf(system, creator.id), []);
  });

  test('when a draft is saved, then nobody is told', async () => {
    const creator = aCreator();
    await publish(system, userEvent(creator));

    await publish(
      system,
      offerEvent(anOpenOffer(randomUUID(), { version: 1, status: 'draft', openedAt: null })),
    );

    assert.deepEqual(await itemsOf(system, creator.id), []);
  });
});

describe('applications', () => {
  test('when a creator applies, then each member of the brand gets one item naming the creator by username, even when the event comes twice', async () => {
    // Arrange
    const brandId = randomUUID();
    const members = [aBrandMember(brandId), aBrandMember(brandId)];
    const creator = aCreator();
    await publish(system, ...[...members, creator].map(userEvent));
    const application = anApplication({ creator, brandId });
    const envelopeId = randomUUID();

    // Act
    await publish(
      system,
      { ...applicationEvent(application), envelopeId },
      { ...applicationEvent(application), envelopeId },
    );

    // Assert
    for (const member of members) {
      const items = await itemsOf(system, member.id);
      assert.equal(items.length, 1);
      assert.equal(items[0]!.kind, 'application_received');
      assert.equal(items[0]!.counterpart, creator.username);
    }
    assert.deepEqual(await itemsOf(system, creator.id), []);
  });

  test('when the brand accepts and the creator is told, then later versions tell nobody again; a withdrawal tells the brand', async () => {
    // Arrange
    const brandId = randomUUID();
    const member = aBrandMember(brandId);
    const creator = aCreator();
    await publish(system, ...[member, creator].map(userEvent));
    const accepted = anApplication(
      { creator, brandId },
      { version: 2, status: 'accepted', decidedAt: new Date().toISOString() },
    );
    const withdrawn = anApplication(
      { creator, brandId },
      { version: 2, status: 'withdrawn', decidedAt: new Date().toISOString() },
    );

    // Act
    await publish(
      system,
      applicationEvent(accepted),
      applicationEvent({ ...accepted, version: 3 }),
      applicationEvent(withdrawn),
    );

    // Assert
    const creatorItems = await itemsOf(system, creator.id);
    assert.deepEqual(
      creatorItems.map((item) => [item.kind, item.counterpart]),
      [['application_accepted', accepted.offer.brand.company]],
    );
    assert.deepEqual(
      (await itemsOf(system, member.id)).map((item) => item.kind),
      ['application_withdrawn'],
    );
  });
});

/** The version of the collaboration copy notifications keeps, or undefined when it has none. */
const copyVersionOf = async (collaborationId: string) =>
  (
    await system.sql.notifications!.query<{ version: number }>(
      'SELECT version FROM collaborations WHERE id = $1',
      [collaborationId],
    )
  ).rows[0]?.version;

/** A brand member and a creator, known here, and their collaboration as opened (not yet published). */
async function anOpenedCollaboration() {
  const brandId = randomUUID();
  const member = aBrandMember(brandId);
  const creator = aCreator();
  await publish(system, ...[member, creator].map(userEvent));
  return { member, creator, opened: aCollaboration({ creator, brandId }, [anEntry('opened')]) };
}

describe('collaborations', () => {
  test('when newer snapshots of a collaboration only count its messages, then its copy is not written again and the next step is still told', async () => {
    // Arrange
    const { member, opened } = await anOpenedCollaboration();
    const counted = (version: number, messageCount: number) => ({
      ...opened,
      version,
      messageCount,
      unread: { brand: messageCount, creator: 0 },
    });
    const submitted = {
      ...counted(4, 2),
      timeline: [...opened.timeline, anEntry('submitted', 'creator')],
    };
    const copyVersion = () => copyVersionOf(opened.id);

    // Act
    await publish(
      system,
      collaborationEvent(opened),
      collaborationEvent(counted(2, 1)),
      collaborationEvent(counted(3, 2)),
    );
    const afterCounts = await copyVersion();
    await publish(system, collaborationEvent(submitted));

    // Assert
    assert.equal(afterCounts, 1);
    assert.equal(await copyVersion(), 4);
    assert.deepEqual(
      (await itemsOf(system, member.id)).map((item) => item.kind),
      ['deliverable_submitted'],
    );
  });

  test('when a snapshot is raised for its conversation alone (a message counted, a seen mark), then it is skipped by its type, and the next step is still told', async () => {
    // Arrange: conversation snapshots that, were they read, would tell a submission.
    const { member, creator, opened } = await anOpenedCollaboration();
    const submittedEntry = anEntry('submitted', 'creator');
    const conversation = {
      ...opened,
      version: 2,
      messageCount: 1,
      timeline: [...opened.timeline, submittedEntry],
    };
    const seenMark = { ...conversation, version: 3, seenSequence: { brand: 1, creator: 0 } };
    const approved = {
      ...seenMark,
      version: 4,
      timeline: [...seenMark.timeline, anEntry('approved', 'brand')],
    };
    const copyVersion = () => copyVersionOf(opened.id);

    // Act
    await publish(
      system,
      collaborationEvent(opened),
      { ...collaborationEvent(conversation), type: eventTypes.collaborationConversationUpdated },
      { ...collaborationEvent(seenMark), type: eventTypes.collaborationSeenMarked },
    );
    const afterConversation = await copyVersion();
    const memberItemsAfterConversation = await itemsOf(system, member.id);
    await publish(system, collaborationEvent(approved));

    // Assert
    assert.equal(afterConversation, 1);
    assert.deepEqual(memberItemsAfterConversation, []);
    assert.equal(await copyVersion(), 4);
    assert.deepEqual(
      (await itemsOf(system, creator.id)).map((item) => item.kind),
      ['deliverable_approved'],
    );
  });

  test('when the work moves on, then each step tells the side it concerns once, and messages tell the other side without their text', async () => {
    // Arrange
    const { member, creator, opened } = await anOpenedCollaboration();
    const submitted = {
      ...opened,
      version: 2,
      timeline: [...opened.timeline, anEntry('submitted', 'creator')],
    };
    const approved = {
      ...submitted,
      version: 3,
      timeline: [...submitted.timeline, anEntry('approved', 'brand'), anEntry('payment_due')],
    };
    const overdue = {
      ...approved,
      version: 4,
      timeline: [...approved.timeline, anEntry('payment_overdue')],
    };
    const fromCreator = messageEvent(opened, { party: 'creator', handle: creator.username! });
    const fromBrand = messageEvent(opened, { party: 'brand', handle: opened.brand.username });

    // Act
    await publish(
      system,
      collaborationEvent(opened),
      collaborationEvent(submitted),
      collaborationEvent(approved),
      collaborationEvent(approved),
      collaborationEvent(overdue),
    );
    await publish(system, fromCreator, fromBrand, fromBrand);

    // Assert
    const memberItems = await itemsOf(system, member.id);
    assert.deepEqual(
      memberItems.map((item) => [item.kind, item.counterpart]),
      [
        ['message_received', creator.username],
        ['payment_overdue', creator.username],
        ['deliverable_submitted', creator.username],
      ],
    );
    const creatorItems = await itemsOf(system, creator.id);
    assert.deepEqual(
      creatorItems.map((item) => [item.kind, item.counterpart]),
      [
        ['message_received', opened.brand.username],
        ['payment_overdue', opened.brand.company],
        ['deliverable_approved', opened.brand.company],
      ],
    );
    assert.ok(
      [...memberItems, ...creatorItems].every((item) => item.collaboration_id === opened.id),
    );
    const stored = JSON.stringify([memberItems, creatorItems]);
    for (const secret of [
      creator.firstName,
      creator.email,
      member.email,
      (fromCreator.record as { body?: string }).body!,
    ])
      assert.ok(!stored.includes(secret), `an item carries ${secret}`);
  });

  test('when each side reviews the completed collaboration, then the side reviewed is told once', async () => {
    // Arrange
    const brandId = randomUUID();
    const member = aBrandMember(brandId);
    const creator = aCreator();
    await publish(system, ...[member, creator].map(userEvent));
    const completed = aCollaboration({ creator, brandId }, [
      anEntry('opened'),
      anEntry('completed'),
    ]);
    const byCreator = {
      ...completed,
      version: completed.version + 1,
      timeline: [...completed.timeline, anEntry('reviewed', 'creator')],
    };
    const byBoth = {
      ...byCreator,
      version: byCreator.version + 1,
      timeline: [...byCreator.timeline, anEntry('reviewed', 'brand')],
    };

    // Act
    await publish(
      system,
      collaborationEvent(completed),
      collaborationEvent(byCreator),
      collaborationEvent(byBoth),
      collaborationEvent(byBoth),
    );

    // Assert
    assert.deepEqual(
      (await itemsOf(system, member.id)).map((item) => [item.kind, item.counterpart]),
      [['review_received', creator.username]],
    );
    assert.deepEqual(
      (await itemsOf(system, creator.id)).map((item) => [item.kind, item.counterpart]),
      [['review_received', completed.brand.company]],
    );
  });

  test('when a message of a collaboration never seen here comes, then nobody is told and the events after it are handled', async () => {
    // Arrange
    const brandId = randomUUID();
    const member = aBrandMember(brandId);
    const creator = aCreator();
    await publish(system, ...[member, creator].map(userEvent));
    const unknown = aCollaboration({ creator, brandId }, [anEntry('opened')]);
    const known = aCollaboration({ creator, brandId }, [anEntry('opened')]);
    await publish(system, collaborationEvent(known));

    // Act
    await publish(
      system,
      messageEvent(unknown, { party: 'creator', handle: creator.username! }),
      messageEvent(known, { party: 'creator', handle: creator.username! }),
    );

    // Assert
    assert.deepEqual(
      (await itemsOf(system, member.id)).map((item) => item.collaboration_id),
      [known.id],
    );
  });

  test('when the inbox changes, then its snapshots are published in order, one version after the other, with the unread count', async () => {
    // Arrange
    const brandId = randomUUID();
    const member = aBrandMember(brandId);
    const creator = aCreator();
    await publish(system, ...[member, creator].map(userEvent));
    // Three conversations: while one's item is unread, its next message adds none.
    const collaborations = [1, 2, 3].map(() =>
      aCollaboration({ creator, brandId }, [anEntry('opened')]),
    );

    // Act
    await publish(system, ...collaborations.map(collaborationEvent));
    await publish(
      system,
      ...collaborations.map((collaboration) =>
        messageEvent(collaboration, { party: 'creator', handle: creator.username! }),
      ),
    );

    // Assert
    const snapshots = await (async () => {
      await harness.inboxEvents.waitFor(
        (message) =>
          message.key?.toString() === member.id &&
          inboxSnapshotsOf(harness, member.id).some((inbox) => inbox.version === 3),
      );
      return inboxSnapshotsOf(harness, member.id);
    })();
    assert.deepEqual(
      snapshots.map((inbox) => [inbox.version, inbox.unread, inbox.latest.length]),
      [
        [1, 1, 1],
        [2, 2, 2],
        [3, 3, 3],
      ],
    );
    const items = await itemsOf(system, member.id);
    assert.deepEqual(
      snapshots.at(-1)!.latest,
      items.map((item) => item.id),
    );
  });
});

describe('automatic approvals coming due', () => {
  /** A deliverable handed in once, waiting for review until `hoursLeft` from now. */
  const aSubmitted = (hoursLeft: number): Deliverable => ({
    id: randomUUID(),
    title: 'One video',
    dueAt: null,
    status: 'submitted',
    changeRequests: 0,
    reviewDueAt: new Date(Date.now() + hoursLeft * 3_600_000).toISOString(),
    submissions: [{ round: 1, link: 'https://example.test/v', note: '', submittedAt: '' }],
    reviews: [],
  });

  test("when a submission's automatic approval is less than a day away, then the brand's members are reminded once; one further away, or of a cancelled collaboration, are not", async () => {
    // Arrange
    const brandId = randomUUID();
    const member = aBrandMember(brandId);
    const creator = aCreator();
    await publish(system, ...[member, creator].map(userEvent));
    const soon = aSubmitted(2);
    const later = aSubmitted(48);
    const cancelledWork = aSubmitted(3);
    const collaboration = aCollaboration({ creator, brandId }, [anEntry('opened')], {
      deliverables: [soon, later],
    });
    const cancelled = aCollaboration({ creator, brandId }, [anEntry('opened')], {
      status: 'cancelled',
      deliverables: [cancelledWork],
    });

    // Act
    await publish(system, collaborationEvent(collaboration), collaborationEvent(cancelled));

    // Assert
    const reminded = await eventually('the reminder of the submission due soon', async () => {
      const items = await itemsOf(system, member.id);
      return items.some((item) => item.kind === 'auto_approval_due') && items;
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const items = await itemsOf(system, member.id);
    assert.deepEqual(items, reminded, 'reminded more than once');
    assert.deepEqual(
      items.map((item) => [item.kind, item.collaboration_id, item.counterpart]),
      [['auto_approval_due', collaboration.id, creator.username]],
    );
    assert.deepEqual(await itemsOf(system, creator.id), []);
  });
});
