/** Everything the brand service consumes, one line per event type and handler. */
import { eventTypes, imageStoredSchema, topics } from '@raly/contracts/events';
import { on, type Subscription } from '@raly/service-kit/consumer';
import type { BrandDependencies } from '../domain/dependencies';
import { applyStoredImage } from '../domain/images';

export function subscriptions(dependencies: BrandDependencies): Subscription[] {
  return [
    on(topics.mediaImage, eventTypes.imageStored, imageStoredSchema, (event) =>
      applyStoredImage(dependencies, event),
    ),
  ];
}
