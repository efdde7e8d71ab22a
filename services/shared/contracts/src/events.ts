/**
 * Integration events (docs/architecture.md "Events"): topics, event types and
 * the payload schema of each, in the envelope of `./envelope`. Producers and
 * consumers both validate with these. Events are immutable facts named
 * `<context>.<aggregate>.<past-tense fact>`; the topic carries the version.
 */
import { z } from 'zod';
import { auditEntrySchema } from './audit';
import { envelopeSchema as anyEnvelopeSchema, type Envelope as AnyEnvelope } from './envelope';
import { collaborationMessageRecordSchema, collaborationRecordSchema } from './collaborations';
import { inboxRecordSchema } from './notifications';
import { applicationRecordSchema, offerRecordSchema } from './offers';
import { brandRecordSchema, userRecordSchema } from './records';
import { reportRecordSchema } from './reports';
import { teamRecordSchema } from './teams';

export const topics = {
  identityUser: 'identity.user.v1',
  brandBrand: 'brand.brand.v1',
  brandTeam: 'brand.team.v1',
  mediaImage: 'media.image.v1',
  offersOffer: 'offers.offer.v1',
  offersApplication: 'offers.application.v1',
  collaborationsCollaboration: 'collaborations.collaboration.v1',
  collaborationsMessage: 'collaborations.message.v1',
  notificationsInbox: 'notifications.inbox.v1',
  livePresence: 'live.presence.v1',
  identityAudit: 'identity.audit.v1',
  brandAudit: 'brand.audit.v1',
  moderationReport: 'moderation.report.v1',
  moderationAudit: 'moderation.audit.v1',
} as const;
export type Topic = (typeof topics)[keyof typeof topics];

export { deadLetterTopic } from './envelope';

export const eventTypes = {
  userCreated: 'identity.user.created',
  userUpdated: 'identity.user.updated',
  brandCreated: 'brand.brand.created',
  brandUpdated: 'brand.brand.updated',
  teamUpdated: 'brand.team.updated',
  imageStored: 'media.image.stored',
  offerCreated: 'offers.offer.created',
  offerUpdated: 'offers.offer.updated',
  applicationCreated: 'offers.application.created',
  applicationUpdated: 'offers.application.updated',
  collaborationOpened: 'collaborations.collaboration.opened',
  collaborationUpdated: 'collaborations.collaboration.updated',
  collaborationConversationUpdated: 'collaborations.collaboration.conversation-updated',
  collaborationSeenMarked: 'collaborations.collaboration.seen-marked',
  messageSent: 'collaborations.message.sent',
  inboxUpdated: 'notifications.inbox.updated',
  presenceSeen: 'live.presence.seen',
  identityAuditEntryRecorded: 'identity.audit-entry.recorded',
  brandAuditEntryRecorded: 'brand.audit-entry.recorded',
  reportOpened: 'moderation.report.opened',
  reportUpdated: 'moderation.report.updated',
  moderationAuditEntryRecorded: 'moderation.audit-entry.recorded',
} as const;
export type EventType = (typeof eventTypes)[keyof typeof eventTypes];

export const imageStoredSchema = z.object({
  ownerType: z.enum(['user', 'brand']),
  ownerId: z.string(),
  kind: z.enum(['profile', 'cover']),
  key: z.string(),
  url: z.string(),
  contentType: z.string(),
  sizeBytes: z.number().int().nonnegative(),
  /**
   * True for the initials picture media makes at creation: the owner applies
   * it only while the field is still empty, so it never replaces an upload.
   */
  isDefault: z.boolean().optional(),
});
export type ImageStored = z.infer<typeof imageStoredSchema>;

/**
 * `live.presence.seen` on `live.presence.v1` (key: the user id): a BFF replica
 * holds at least one open socket of the user at `seenAt`. Each replica sends
 * one per connected user when the socket connects and then every
 * `PRESENCE_HEARTBEAT_MS`; nothing is sent when a socket closes, so a crashed
 * replica's users simply stop being seen (docs/architecture.md "Presence").
 */
export const presenceSeenSchema = z.object({
  userId: z.string().min(1),
  /** ISO 8601 instant of the heartbeat. */
  seenAt: z.iso.datetime({ offset: true }),
});
export type PresenceSeen = z.infer<typeof presenceSeenSchema>;

/** Payload schema per event type. */
export const payloadSchemas = {
  [eventTypes.userCreated]: userRecordSchema,
  [eventTypes.userUpdated]: userRecordSchema,
  [eventTypes.brandCreated]: brandRecordSchema,
  [eventTypes.brandUpdated]: brandRecordSchema,
  [eventTypes.teamUpdated]: teamRecordSchema,
  [eventTypes.imageStored]: imageStoredSchema,
  [eventTypes.offerCreated]: offerRecordSchema,
  [eventTypes.offerUpdated]: offerRecordSchema,
  [eventTypes.applicationCreated]: applicationRecordSchema,
  [eventTypes.applicationUpdated]: applicationRecordSchema,
  [eventTypes.collaborationOpened]: collaborationRecordSchema,
  [eventTypes.collaborationUpdated]: collaborationRecordSchema,
  [eventTypes.collaborationConversationUpdated]: collaborationRecordSchema,
  [eventTypes.collaborationSeenMarked]: collaborationRecordSchema,
  [eventTypes.messageSent]: collaborationMessageRecordSchema,
  [eventTypes.inboxUpdated]: inboxRecordSchema,
  [eventTypes.presenceSeen]: presenceSeenSchema,
  [eventTypes.identityAuditEntryRecorded]: auditEntrySchema,
  [eventTypes.brandAuditEntryRecorded]: auditEntrySchema,
  [eventTypes.reportOpened]: reportRecordSchema,
  [eventTypes.reportUpdated]: reportRecordSchema,
  [eventTypes.moderationAuditEntryRecorded]: auditEntrySchema,
} as const;

/** The envelope of one of Raly's events: `type` is a known event type. */
export const envelopeSchema = anyEnvelopeSchema.extend({
  type: z.enum(Object.values(eventTypes) as [EventType, ...EventType[]]),
});
export type Envelope<T = unknown> = AnyEnvelope<T, EventType>;

/**
 * Parses a raw Kafka message value into a typed envelope.
 * @param raw the message value (UTF-8 JSON)
 * @returns the envelope with `data` validated against its type's schema
 * @throws ZodError or SyntaxError for a poison message (send it to the DLQ)
 */
export function parseEnvelope(raw: Buffer | string): Envelope {
  const json: unknown = JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8'));
  const envelope = envelopeSchema.parse(json);
  const data = payloadSchemas[envelope.type].parse(envelope.data);
  return { ...envelope, data };
}
