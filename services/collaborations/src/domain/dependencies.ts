/** What the collaborations use cases need from the outside world, handed in by `../app.ts`. */
import type { Logger } from '@raly/service-kit/logger';
import type { CollaborationRepository } from '../data-access/collaboration-repository';
import type { IdentityClient } from '../data-access/identity-client';
import type { MessageRepository } from '../data-access/message-repository';
import type { TrackRecordRepository } from '../data-access/track-record-repository';

export interface CollaborationsDependencies {
  collaborations: CollaborationRepository;
  messages: MessageRepository;
  /** The figures of the public track records (read-only). */
  trackRecords: TrackRecordRepository;
  /** identity-profile: the brand a caller is a member of. */
  identity: IdentityClient;
  /** How long a submission waits for review, and a due payment for its confirmation, in ms. */
  workWindows: { reviewWindowMs: number; paymentOverdueMs: number };
  logger: Logger;
}
