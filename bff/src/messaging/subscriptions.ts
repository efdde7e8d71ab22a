/**
 * Everything the BFF subscribes to, one line per event type and handler.
 * Each handler projects the record snapshot into the read model (and so to
 * the owner's socket room). The kit's consumer runner dead-letters poison
 * messages to `<topic>.dlq`.
 */
import { eventTypes, topics, type Envelope } from '@raly/contracts/events';
import type { BrandRecord, UserRecord } from '@raly/contracts/records';
import { on, type Subscription } from '@raly/service-kit/consumer';
import type { AggregateKind, RecordByKind } from '../data-access/read-model';
import type { RecordStore } from '../domain/record-store';

/**
 * Stores an event's snapshot, version-checked.
 * @throws Error when the envelope and its record disagree (subject/version): such a message is poison
 */
const saveSnapshot =
  <K extends AggregateKind>(records: RecordStore, kind: K) =>
  async (event: Envelope<RecordByKind[K]>): Promise<void> => {
    if (event.data.id !== event.subject) throw new Error('envelope subject and record id differ');
    if (event.data.version !== event.version)
      throw new Error('envelope version and record version differ');
    await records.save(kind, event.data);
  };

/** @param records where snapshots are stored and pushed from */
export function subscriptions(records: RecordStore): Subscription[] {
  return [
    on<UserRecord>(topics.identityUser, eventTypes.userCreated, saveSnapshot(records, 'user')),
    on<UserRecord>(topics.identityUser, eventTypes.userUpdated, saveSnapshot(records, 'user')),
    on<BrandRecord>(topics.brandBrand, eventTypes.brandCreated, saveSnapshot(records, 'brand')),
    on<BrandRecord>(topics.brandBrand, eventTypes.brandUpdated, saveSnapshot(records, 'brand')),
  ];
}
