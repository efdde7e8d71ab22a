/** What the notifications use cases need from the outside world, handed in by `../app.ts`. */
import type { Logger } from '@raly/service-kit/logger';
import type { Announcements } from '../data-access/announcements';
import type { Copies } from '../data-access/copies';
import type { InboxRepository } from '../data-access/inbox-repository';
import type { PresenceRepository } from '../data-access/presence';
import type { ReviewReminders } from '../data-access/review-reminders';

export interface NotificationsDependencies {
  copies: Copies;
  inboxes: InboxRepository;
  announcements: Announcements;
  reviewReminders: ReviewReminders;
  presence: PresenceRepository;
  /** A person with no heartbeat for this long (ms) counts as away (./presence). */
  awayAfterMs: number;
  /** How long before a submission's automatic approval its brand is reminded, in ms. */
  reviewReminderLeadMs: number;
  /** Creators told of an opened offer per transaction. */
  announceBatch: number;
  /** Facts older than this (ms) notify nobody (a replay of history rebuilds the copies only). */
  maxAgeMs: number;
  logger: Logger;
  /** The clock (tests may pin it). */
  now(): Date;
}
