/** Everything media consumes, one line per event type and handler: creations get default pictures. */
import { eventTypes, topics } from '@raly/contracts/events';
import type { BrandRecord, UserRecord } from '@raly/contracts/records';
import { on, type Subscription } from '@raly/service-kit/consumer';
import { makeBrandDefaultImage, makeUserDefaultImage } from '../domain/default-images';
import type { MediaDependencies } from '../domain/dependencies';

export function subscriptions(dependencies: MediaDependencies): Subscription[] {
  return [
    on<UserRecord>(topics.identityUser, eventTypes.userCreated, (event) =>
      makeUserDefaultImage(dependencies, event),
    ),
    on<BrandRecord>(topics.brandBrand, eventTypes.brandCreated, (event) =>
      makeBrandDefaultImage(dependencies, event),
    ),
  ];
}
