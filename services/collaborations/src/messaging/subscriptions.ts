/** Everything the collaborations service consumes, one line per event type and handler: applications, for the accepted ones. */
import { eventTypes, topics } from '@raly/contracts/events';
import { applicationRecordSchema } from '@raly/contracts/offers';
import { on, type Subscription } from '@raly/service-kit/consumer';
import { openCollaborationOfApplication } from '../domain/collaborations';
import type { CollaborationsDependencies } from '../domain/dependencies';

/** @returns the consumer's subscription list: an accepted application opens its collaboration */
export function subscriptions(dependencies: CollaborationsDependencies): Subscription[] {
  const open = (event: Parameters<typeof openCollaborationOfApplication>[1]) =>
    openCollaborationOfApplication(dependencies, event);
  return [
    on(topics.offersApplication, eventTypes.applicationCreated, applicationRecordSchema, open),
    on(topics.offersApplication, eventTypes.applicationUpdated, applicationRecordSchema, open),
  ];
}
