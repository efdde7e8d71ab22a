/**
 * Everything the BFF subscribes to, one line per topic: which events it
 * accepts and what it does with them. Each projects the record snapshot
 * into the read model (and so to the owner's socket room).
 */
import { eventTypes, topics, type Envelope } from '@raly/contracts/events';
import type { BrandRecord, UserRecord } from '@raly/contracts/records';
import type { RecordStore } from '../domain/record-store';
import type { Subscription } from './event-consumer';

/** @param records where snapshots are stored and pushed from */
export function subscriptions(records: RecordStore): Subscription[] {
  return [
    { topic: topics.identityUser, eventTypes: [eventTypes.userCreated, eventTypes.userUpdated], handle: (e: Envelope) => records.save('user', e.data as UserRecord).then(() => undefined) },
    { topic: topics.brandBrand, eventTypes: [eventTypes.brandCreated, eventTypes.brandUpdated], handle: (e: Envelope) => records.save('brand', e.data as BrandRecord).then(() => undefined) },
  ];
}
