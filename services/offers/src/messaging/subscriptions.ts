/** Everything the offers service consumes, one line per event type and handler: the public copies of users and brands. */
import { eventTypes, topics } from '@raly/contracts/events';
import { brandRecordSchema, userRecordSchema } from '@raly/contracts/records';
import { on, type Subscription } from '@raly/service-kit/consumer';
import { applyBrandSnapshot } from '../domain/brands';
import type { OffersDependencies } from '../domain/dependencies';
import { applyUserSnapshot } from '../domain/users';

/** @returns the consumer's subscription list: user and brand snapshots into the public copies */
export function subscriptions(dependencies: OffersDependencies): Subscription[] {
  const saveUser = (event: Parameters<typeof applyUserSnapshot>[1]) =>
    applyUserSnapshot(dependencies, event);
  const saveBrand = (event: Parameters<typeof applyBrandSnapshot>[1]) =>
    applyBrandSnapshot(dependencies, event);
  return [
    on(topics.identityUser, eventTypes.userCreated, userRecordSchema, saveUser),
    on(topics.identityUser, eventTypes.userUpdated, userRecordSchema, saveUser),
    on(topics.brandBrand, eventTypes.brandCreated, brandRecordSchema, saveBrand),
    on(topics.brandBrand, eventTypes.brandUpdated, brandRecordSchema, saveBrand),
  ];
}
