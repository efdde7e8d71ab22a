/** Everything media consumes, one line per event type and handler: creations get default pictures. */
import { eventTypes, topics } from '@raly/contracts/events';
import { brandRecordSchema, userRecordSchema } from '@raly/contracts/records';
import { on, type Subscription } from '@raly/service-kit/consumer';
import { makeBrandDefaultImage, makeUserDefaultImage } from '../domain/default-images';
import type { MediaDependencies } from '../domain/dependencies';

export function subscriptions(dependencies: MediaDependencies): Subscription[] {
  return [
    on(topics.identityUser, eventTypes.userCreated, userRecordSchema, (event) =>
      makeUserDefaultImage(dependencies, event),
    ),
    on(topics.brandBrand, eventTypes.brandCreated, brandRecordSchema, (event) =>
      makeBrandDefaultImage(dependencies, event),
    ),
  ];
}
