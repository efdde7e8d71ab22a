/**
 * Helpers of the notifications tests only: the system (identity-profile,
 * brand, notifications) with a listener on `notifications.inbox.v1`, events
 * published as their producers would (identity's users, offers' offers and
 * applications, collaborations' collaborations and messages, moderation's
 * reports), waiting until
 * the notifications service handled them, and reads of its rows.
 */
import { randomUUID } from 'node:crypto';
import type {
  CollaborationMessageRecord,
  CollaborationRecord,
} from '@raly/contracts/collaborations';
import type { TimelineEntry } from '@raly/contracts/collaboration-work';
import { eventTypes, topics, type EventType } from '@raly/contracts/events';
import type { InboxRecord } from '@raly/contracts/notifications';
import type { ApplicationRecord, OfferRecord } from '@raly/contracts/offers';
import type { UserRecord } from '@raly/contracts/records';
import type { ReportRecord } from '@raly/contracts/reports';
import { afterAll, beforeAll } from 'vitest';
import {
  aUserRecord,
  anEnvelope,
  callApi,
  connectTestKafka,
  ensureRealmServiceClients,
  envelopeOf,
  listenToTopic,
  testKeycloak,
  testStack,
  type TestKeycloak,
  type TopicListener,
  uniqueToken,
} from '@raly/test-support';
import { type RalySystem, registeredCreator, startSystem } from '@raly/test-support/system';

/** What {@link useNotificationsSystem} fills in before the file's tests run. */
export interface NotificationsHarness {
  system: RalySystem;
  /** Everything published on `notifications.inbox.v1`. */
  inboxEvents: TopicListener;
}

/**
 * Registers the hooks that start identity-profile, brand and notifications (with `env` added to
 * its environment) for one test file, with a listener on `notifications.inbox.v1`, and stop them.
 */
export function useNotificationsSystem(
  options: { env?: Record<string, string> } = {},
): NotificationsHarness {
  const harness = {} as NotificationsHarness;
  let keycloak: TestKeycloak | undefined;
  beforeAll(async () => {
    harness.system = await startSystem({
      notifications: true,
      env: { notifications: options.env ?? {} },
    });
    keycloak = testKeycloak(harness.system.stack);
    harness.inboxEvents = await listenToTopic(
      harness.system.stack.kafkaBrokers,
      topics.notificationsInbox,
    );
  });
  afterAll(async () => {
    await harness.inboxEvents?.stop();
    await harness.system?.stop();
    await keycloak?.cleanUp();
  });
  return harness;
}

/** One event to publish: its topic, type and snapshot (key: its id, or `key`). */
export interface Published {
  topic: string;
  type: EventType;
  record: { id: string; version: number };
  key?: string;
}

/**
 * Publishes events as their producers would, in order, and waits until the notifications
 * service has handled each (its group committed past it). The same envelope may be given twice
 * (`envelopeId`) to redeliver it.
 */
export async function publish(
  system: RalySystem,
  ...events: (Published & { envelopeId?: string })[]
): Promise<void> {
  const kafka = await connectTestKafka(system.stack.kafkaBrokers);
  try {
    const positions = [];
    for (const event of events) {
      const envelope = { ...anEnvelope(event.record, event.type) };
      if (event.envelopeId) envelope.id = event.envelopeId;
      positions.push({
        topic: event.topic,
        // With the `event-type` header, as the outbox relay publishes.
        at: await kafka.produce(
          event.topic,
          event.key ?? event.record.id,
          JSON.stringify(envelope),
          {
            'event-type': envelope.type,
          },
        ),
      });
    }
    const groupId = system.services.notifications!.env.KAFKA_GROUP_ID!;
    for (const { topic, at } of positions) await kafka.waitUntilCommitted(groupId, topic, at);
  } finally {
    await kafka.close();
  }
}

/** A user event (identity.user.v1). */
export const userEvent = (user: UserRecord): Published => ({
  topic: topics.identityUser,
  type: eventTypes.userUpdated,
  record: user,
});

/** An onboarded creator wanting offers of `interests` (overrides win). */
export const aCreator = (overrides: Partial<UserRecord> = {}): UserRecord =>
  aUserRecord({
    onboarding: { terms: true, interests: true, connects: true, wallet: true },
    ...overrides,
  });

/** A member of `brandId`. */
export const aBrandMember = (brandId: string): UserRecord =>
  aUserRecord({
    interests: [],
    onboarding: { terms: true, brand: true },
    brand: { id: brandId, isAdmin: true },
  });

/** The summary of a brand as offers and collaborations carry it. */
export const aBrandSummary = (brandId: string) => {
  const token = uniqueToken(8);
  return {
    id: brandId,
    username: `brand${token}`,
    company: `Acme ${token}`,
    profileImg: '',
    isVerified: false,
  };
};

/** An open offer of `brandId` in `interests`; `overrides` win. */
export function anOpenOffer(brandId: string, overrides: Partial<OfferRecord> = {}): OfferRecord {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    version: 2,
    brandId,
    brand: aBrandSummary(brandId),
    title: `Launch video ${uniqueToken(6)}`,
    brief: 'Film a sixty second video showing how you use our app every morning.',
    interests: ['AI'],
    platforms: ['x'],
    deliverables: 'One video.',
    compensation: { kind: 'fixed', amountMinor: 50_000, currency: 'USD' },
    creatorsWanted: 2,
    placesFilled: 0,
    applyBy: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    status: 'open',
    closedReason: null,
    created: now,
    openedAt: now,
    closedAt: null,
    ...overrides,
  };
}

/** An offer event (offers.offer.v1). */
export const offerEvent = (offer: OfferRecord): Published => ({
  topic: topics.offersOffer,
  type: offer.version === 1 ? eventTypes.offerCreated : eventTypes.offerUpdated,
  record: offer,
});

/** An application of `creator` to a `brandId` offer, pending; `overrides` win. */
export function anApplication(
  parties: { creator: UserRecord | { id: string; username: string }; brandId: string },
  overrides: Partial<ApplicationRecord> = {},
): ApplicationRecord {
  const offerId = randomUUID();
  return {
    id: randomUUID(),
    version: 1,
    offerId,
    brandId: parties.brandId,
    creatorId: parties.creator.id,
    offer: {
      id: offerId,
      title: `Launch video ${uniqueToken(6)}`,
      brand: aBrandSummary(parties.brandId),
    },
    creator: {
      id: parties.creator.id,
      username: parties.creator.username ?? 'creator',
      profileImg: '',
      coverImg: '',
      interests: ['AI'],
      socials: { x: '', instagram: '', threads: '' },
    },
    pitch: 'I film daily tech videos for forty thousand people.',
    proposedRate: null,
    status: 'pending',
    created: new Date().toISOString(),
    decidedAt: null,
    ...overrides,
  };
}

/** An application event (offers.application.v1). */
export const applicationEvent = (application: ApplicationRecord): Published => ({
  topic: topics.offersApplication,
  type:
    application.status === 'pending'
      ? eventTypes.applicationCreated
      : eventTypes.applicationUpdated,
  record: application,
});

/** A collaboration between `creator` and `brandId` with `timeline`; `overrides` win. */
export function aCollaboration(
  parties: { creator: { id: string; username: string | null }; brandId: string },
  timeline: TimelineEntry[],
  overrides: Partial<CollaborationRecord> = {},
): CollaborationRecord {
  const now = new Date().toISOString();
  const offerId = randomUUID();
  return {
    id: randomUUID(),
    version: timeline.length,
    applicationId: randomUUID(),
    offerId,
    brandId: parties.brandId,
    creatorId: parties.creator.id,
    offer: { id: offerId, title: `Launch video ${uniqueToken(6)}` },
    brand: aBrandSummary(parties.brandId),
    creator: { id: parties.creator.id, username: parties.creator.username ?? 'c', profileImg: '' },
    terms: null,
    status: 'active',
    messageCount: 0,
    lastMessageAt: null,
    unread: { brand: 0, creator: 0 },
    seenSequence: { brand: 0, creator: 0 },
    deliverables: [],
    payment: {
      status: 'not_due',
      amount: null,
      reference: null,
      dueAt: null,
      paidAt: null,
      confirmedAt: null,
      overdue: false,
    },
    cancellation: null,
    reviews: { brand: null, creator: null },
    timeline,
    created: now,
    updated: now,
    ...overrides,
  };
}

/** A timeline entry of now. */
export const anEntry = (
  kind: TimelineEntry['kind'],
  party: TimelineEntry['party'] = null,
): TimelineEntry => ({ kind, at: new Date().toISOString(), party, deliverableId: null });

/** A collaboration event (collaborations.collaboration.v1). */
export const collaborationEvent = (collaboration: CollaborationRecord): Published => ({
  topic: topics.collaborationsCollaboration,
  type:
    collaboration.version === 1 ? eventTypes.collaborationOpened : eventTypes.collaborationUpdated,
  record: collaboration,
});

/** A message event (collaborations.message.v1, key: its collaboration). */
export const messageEvent = (
  collaboration: Pick<CollaborationRecord, 'id'>,
  sender: CollaborationMessageRecord['sender'],
): Published => {
  const message: CollaborationMessageRecord = {
    id: randomUUID(),
    version: 1,
    collaborationId: collaboration.id,
    clientId: randomUUID(),
    sequence: 1,
    sender,
    body: `A private message ${uniqueToken(6)}`,
    created: new Date().toISOString(),
  };
  return {
    topic: topics.collaborationsMessage,
    type: eventTypes.messageSent,
    record: message,
    key: collaboration.id,
  };
};

/**
 * An open report of `reporterUserId` about an offer of another brand, as services/moderation
 * publishes it (version 1); `overrides` win.
 */
export function anOpenReport(
  reporterUserId: string,
  overrides: Partial<ReportRecord> = {},
): ReportRecord {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    version: 1,
    reporterUserId,
    item: { kind: 'offer', id: randomUUID(), label: `Launch video ${uniqueToken(6)}` },
    accused: { kind: 'brand', id: randomUUID() },
    reason: 'scam-or-fraud',
    note: 'They asked me to pay a fee before starting.',
    status: 'open',
    resolution: null,
    created: now,
    updated: now,
    ...overrides,
  };
}

/** `report` resolved by a staff member with `outcome`, `at` (default: now): its next version. */
export function resolved(
  report: ReportRecord,
  outcome: NonNullable<ReportRecord['resolution']>['outcome'],
  at = new Date().toISOString(),
): ReportRecord {
  return {
    ...report,
    version: report.version + 1,
    status: 'resolved',
    resolution: {
      outcome,
      note: `Checked the offer ${uniqueToken(6)}.`,
      staff: { userId: randomUUID(), email: `moderator-${uniqueToken(6)}@raly.example` },
      at,
    },
    updated: at,
  };
}

/** A report event (moderation.report.v1). */
export const reportEvent = (report: ReportRecord): Published => ({
  topic: topics.moderationReport,
  type: report.version === 1 ? eventTypes.reportOpened : eventTypes.reportUpdated,
  record: report,
});

/** One notification row, as stored. */
export interface NotificationRow {
  id: string;
  recipient_id: string;
  kind: string;
  title: string;
  counterpart: string | null;
  offer_id: string | null;
  collaboration_id: string | null;
  report_item_kind: string | null;
  report_outcome: string | null;
  read_at: Date | null;
}

/** The items stored for `recipientId`, newest first (direct SQL). */
export async function itemsOf(system: RalySystem, recipientId: string) {
  const { rows } = await system.sql.notifications!.query<NotificationRow>(
    'SELECT * FROM notifications WHERE recipient_id = $1 ORDER BY sequence DESC',
    [recipientId],
  );
  return rows;
}

/** The inbox snapshots published for `personId`, in the order they were published. */
export const inboxSnapshotsOf = (harness: NotificationsHarness, personId: string) =>
  harness.inboxEvents.messages
    .filter((message) => message.key?.toString() === personId)
    .map((message) => envelopeOf<InboxRecord>(message).data);

/** Calls the notifications service as the holder of `token` (none: a visitor). */
export const asUser =
  (system: RalySystem, token?: string) =>
  <Data = unknown>(method: string, path: string, body?: unknown) =>
    callApi<Data>(system.notificationsUrl, method, path, { token, body });

/**
 * {@link useNotificationsSystem} for a file that sends e-mails: the notifications service's
 * client (to look addresses up in identity-profile) added to the realm first, as the realm file
 * states it (`ensureRealmServiceClients`), and the digest sweep and mail relay every 200 ms
 * unless `env` says otherwise.
 */
export function useMailingSystem(env: Record<string, string>): NotificationsHarness {
  beforeAll(async () => ensureRealmServiceClients(await testStack()));
  return useNotificationsSystem({
    env: { NOTIFICATIONS_DIGEST_SWEEP_MS: '200', NOTIFICATIONS_MAIL_RELAY_MS: '200', ...env },
  });
}

/** A creator registered in identity-profile (so their address can be looked up), with `id` and `username`. */
export async function aRegisteredCreator(system: RalySystem) {
  const creator = await registeredCreator(system);
  return { ...creator, id: creator.userId, username: creator.registration.username };
}

/**
 * A brand's message to the creator in a new collaboration, published and handled
 * (the collaboration's snapshot first, then the message).
 * @returns the collaboration and the message
 */
export async function aMessageTo(system: RalySystem, creator: { id: string; username: string }) {
  const collaboration = aCollaboration({ creator, brandId: randomUUID() }, [anEntry('opened')]);
  const message = messageEvent(collaboration, {
    party: 'brand',
    handle: collaboration.brand.username,
  });
  // As in the product: the collaboration is known before anyone writes in it (the two topics
  // are consumed in no set order, and a message of an unknown collaboration tells nobody).
  await publish(system, collaborationEvent(collaboration));
  await publish(system, message);
  return { collaboration, message: message.record as CollaborationMessageRecord };
}
