/**
 * Test data with unique values: tokens, user and brand record snapshots
 * (spec §3 shapes), staff audit entries, their event envelopes, and creator and brand
 * registrations (CreateAccountCommand). Every registration made here is
 * remembered, so {@link forgetRegisteredEmails} can hand its e-mail to the
 * Keycloak clean-up (keycloak.ts).
 */
import { randomUUID } from 'node:crypto';
import { eventTypes, type Envelope, type EventType } from '@raly/contracts/events';
import type { AuditEntry } from '@raly/contracts/audit';
import type { BrandRecord, UserRecord } from '@raly/contracts/records';

/** A short unique lowercase token of letters and digits (fits a username). */
export function uniqueToken(length = 10): string {
  return randomUUID().replaceAll('-', '').slice(0, length);
}

/** A creator's user record snapshot with unique id, username and e-mail; `overrides` win. */
export function aUserRecord(overrides: Partial<UserRecord> = {}): UserRecord {
  const token = uniqueToken();
  return {
    id: randomUUID(),
    version: 1,
    username: `u${token}`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: `ada.${token}@example.test`,
    phoneNumber: '',
    profileImg: '',
    coverImg: '',
    interests: ['AI'],
    socials: { x: '', instagram: '', threads: '' },
    onboarding: { terms: true, interests: true, connects: false, wallet: false },
    permissions: {
      isInfluencer: true,
      isBoosted: false,
      isVerified: false,
      isSuspended: false,
      isAmbassador: false,
    },
    notifications: { offers: true, marketing: true },
    brand: null,
    lastLogin: null,
    created: new Date().toISOString(),
    ...overrides,
  };
}

/**
 * A staff audit entry (contracts `auditEntrySchema`): a moderator suspending a creator now, with
 * unique ids, e-mail and username; `overrides` win.
 */
export function anAuditEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  const token = uniqueToken();
  return {
    id: randomUUID(),
    at: new Date().toISOString(),
    staff: { userId: randomUUID(), email: `staff.${token}@raly.test` },
    action: 'creator.suspend',
    target: { kind: 'creator', id: randomUUID(), label: `u${token}` },
    reason: 'Spam in applications',
    details: {},
    ...overrides,
  };
}

/** A brand record snapshot with unique id, username and company; `overrides` win. */
export function aBrandRecord(overrides: Partial<BrandRecord> = {}): BrandRecord {
  const token = uniqueToken();
  return {
    id: randomUUID(),
    version: 1,
    username: `b${token}`,
    company: `Company ${token}`,
    websiteUrl: 'https://example.test',
    profileImg: '',
    coverImg: '',
    bio: '',
    socials: { x: '', instagram: '', threads: '', discord: '' },
    permissions: { isAgency: false, isVerified: false, isSuspended: false },
    created: new Date().toISOString(),
    ...overrides,
  };
}

/** The envelope a producer would publish for a snapshot (@raly/contracts/events). */
export function anEnvelope<T extends { id: string; version: number }>(
  record: T,
  type: EventType = eventTypes.userUpdated,
): Envelope<T> {
  return {
    id: randomUUID(),
    type,
    source: 'raly-test',
    subject: record.id,
    time: new Date().toISOString(),
    version: record.version,
    data: record,
  };
}

/** The parsed envelope of a Kafka message value (`{}` when empty). */
export function envelopeOf<Data = Record<string, unknown>>(message: {
  value: Buffer | null;
}): Envelope<Data> {
  return JSON.parse(message.value?.toString() ?? '{}') as Envelope<Data>;
}

const registeredEmails = new Set<string>();

/** The e-mails of the registrations made so far, lowercased; forgets them (for the Keycloak clean-up). */
export function forgetRegisteredEmails(): string[] {
  const emails = [...registeredEmails];
  registeredEmails.clear();
  return emails;
}

/** Remembers an e-mail for the Keycloak clean-up (a user registered without these factories). */
export function rememberEmail(email: string): void {
  registeredEmails.add(email.toLowerCase());
}

/** A creator registration (spec §2.1 Create Account form) with unique values; `overrides` win. */
export interface CreatorRegistration {
  username: string;
  email: string;
  password: string;
  confirmPassword: string;
  agreeTerms: boolean;
}

/**
 * A valid creator registration with unique values (remembered for clean-up).
 * A password given in `overrides` is also the confirmation unless that is given too.
 */
export function creatorRegistration(
  overrides: Partial<CreatorRegistration> = {},
): CreatorRegistration {
  const token = uniqueToken();
  const password = overrides.password ?? `pw-${token}`;
  const registration = {
    username: `c${token}`,
    email: `creator-${token}@raly.test`,
    password,
    confirmPassword: password,
    agreeTerms: true,
    ...overrides,
  };
  rememberEmail(registration.email);
  return registration;
}

/** A brand registration (spec §2.2): a creator registration plus the contact and company fields. */
export interface BrandRegistration extends CreatorRegistration {
  firstName: string;
  lastName: string;
  company: string;
  website: string;
}

/** A valid brand registration with unique values (remembered for clean-up). */
export function brandRegistration(overrides: Partial<BrandRegistration> = {}): BrandRegistration {
  const token = uniqueToken();
  const password = overrides.password ?? `pw-${token}`;
  const registration = {
    username: `b${token}`,
    email: `brand-${token}@raly.test`,
    password,
    confirmPassword: password,
    agreeTerms: true,
    firstName: 'Ada',
    lastName: `Lovelace${token}`,
    company: `Acme ${token}`,
    website: `https://acme-${token}.example`,
    ...overrides,
  };
  rememberEmail(registration.email);
  return registration;
}

/** The createAccount command of a creator registration (docs/api.md POST /api/accounts). */
export function aCreatorAccount(overrides: Partial<CreatorRegistration> = {}) {
  return { isBrand: false as const, registration: creatorRegistration(overrides) };
}

/** The createAccount command of a brand registration. */
export function aBrandAccount(overrides: Partial<BrandRegistration> = {}) {
  return { isBrand: true as const, registration: brandRegistration(overrides) };
}
