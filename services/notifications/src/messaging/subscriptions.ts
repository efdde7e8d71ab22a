/**
 * Everything the notifications service consumes, one line per event type
 * and handler: users (who people are), offers (announced when they open),
 * applications, collaborations and their messages (told to the other side),
 * reports (their reporter learns the outcome), and the BFF's presence
 * heartbeats (who is away, for the e-mail digests).
 */
import {
  collaborationMessageRecordSchema,
  collaborationRecordSchema,
} from '@raly/contracts/collaborations';
import { eventTypes, presenceSeenSchema, topics } from '@raly/contracts/events';
import { applicationRecordSchema, offerRecordSchema } from '@raly/contracts/offers';
import { userRecordSchema } from '@raly/contracts/records';
import { reportRecordSchema } from '@raly/contracts/reports';
import { on, type Subscription } from '@raly/service-kit/consumer';
import {
  notifyOfCollaboration,
  notifyOfMessage,
  seenCollaborations,
} from '../domain/collaborations';
import type { NotificationsDependencies } from '../domain/dependencies';
import { announceOpenedOffer, notifyOfApplication } from '../domain/offers';
import { savePersonOfUser } from '../domain/people';
import { notePresence } from '../domain/presence';
import { notifyOfReportOutcome } from '../domain/reports';

/** @returns the consumer's subscription list */
export function subscriptions(dependencies: NotificationsDependencies): Subscription[] {
  const handle =
    <T>(handler: (dependencies: NotificationsDependencies, event: T) => Promise<void>) =>
    (event: T) =>
      handler(dependencies, event);
  const person = handle(savePersonOfUser);
  const offer = handle(announceOpenedOffer);
  const application = handle(notifyOfApplication);
  const seen = seenCollaborations();
  const collaboration = (event: Parameters<typeof notifyOfCollaboration>[1]) =>
    notifyOfCollaboration(dependencies, event, seen);
  const report = handle(notifyOfReportOutcome);
  return [
    on(topics.identityUser, eventTypes.userCreated, userRecordSchema, person),
    on(topics.identityUser, eventTypes.userUpdated, userRecordSchema, person),
    on(topics.offersOffer, eventTypes.offerCreated, offerRecordSchema, offer),
    on(topics.offersOffer, eventTypes.offerUpdated, offerRecordSchema, offer),
    on(
      topics.offersApplication,
      eventTypes.applicationCreated,
      applicationRecordSchema,
      application,
    ),
    on(
      topics.offersApplication,
      eventTypes.applicationUpdated,
      applicationRecordSchema,
      application,
    ),
    on(
      topics.collaborationsCollaboration,
      eventTypes.collaborationOpened,
      collaborationRecordSchema,
      collaboration,
    ),
    on(
      topics.collaborationsCollaboration,
      eventTypes.collaborationUpdated,
      collaborationRecordSchema,
      collaboration,
    ),
    on(
      topics.collaborationsMessage,
      eventTypes.messageSent,
      collaborationMessageRecordSchema,
      handle(notifyOfMessage),
    ),
    on(topics.moderationReport, eventTypes.reportOpened, reportRecordSchema, report),
    on(topics.moderationReport, eventTypes.reportUpdated, reportRecordSchema, report),
    on(topics.livePresence, eventTypes.presenceSeen, presenceSeenSchema, handle(notePresence)),
  ];
}
