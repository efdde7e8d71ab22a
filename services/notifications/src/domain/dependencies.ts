/** What the notifications use cases need from the outside world, handed in by `../app.ts`. */
import type { Logger } from '@raly/service-kit/logger';
import type { Announcements } from '../data-access/announcements';
import type { DigestStore } from '../data-access/digests';
import type { ContactDirectory } from '../data-access/identity-client';
import type { Mailer } from '@raly/service-kit/mail';
import type { PreferenceStore } from '../data-access/preferences';
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
  /** Each person's switches by category and channel (./preferences): read by the digests too. */
  preferences: PreferenceStore;
  /** A person with no heartbeat for this long (ms) counts as away (./presence). */
  awayAfterMs: number;
  /** How long before a submission's automatic approval its brand is reminded, in ms. */
  reviewReminderLeadMs: number;
  /** Creators told of an opened offer per transaction. */
  announceBatch: number;
  /** Facts older than this (ms) notify nobody (a replay of history rebuilds the copies only). */
  maxAgeMs: number;
  digests: DigestDependencies;
  logger: Logger;
  /** The clock (tests may pin it). */
  now(): Date;
}

/** What the e-mail digests and their mail relay need (./digests). */
export interface DigestDependencies {
  store: DigestStore;
  contacts: ContactDirectory;
  mailer: Mailer;
  /** HMAC key of the unsubscribe tokens (./unsubscribe.ts). */
  unsubscribeSecret: string;
  /** At most one digest per person within this many ms. */
  windowMs: number;
  /** Time between the sweeps that open digests, in ms. */
  sweepMs: number;
  /** Time between the mail relay's runs, in ms. */
  relayMs: number;
  settings: {
    /** The web app's origin, e.g. `https://raly.example.com`. */
    webUrl: string;
    /** Attempts of one e-mail before it is given up (status `failed`). */
    maxAttempts: number;
    /** Delay before the second attempt, in ms; doubling after each further failure. */
    retryMs: number;
    /** The page where the person turns these e-mails off (the body's link). */
    unsubscribeUrlOf(personId: string): string;
    /** Header lines of the person's e-mail (RFC 8058 `List-Unsubscribe`, …). */
    headersOf(personId: string): Record<string, string>;
  };
}
