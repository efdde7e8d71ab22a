/** Unique test data: user and brand record snapshots and their event envelopes. */
import { randomUUID } from 'node:crypto';
import { eventTypes, type Envelope, type EventType } from '@raly/contracts/events';
import type { BrandRecord, UserRecord } from '@raly/contracts/records';

export const uniqueSuffix = () => randomUUID().replace(/-/g, '').slice(0, 10);

/** A creator's user record snapshot. */
export function aUserRecord(overrides: Partial<UserRecord> = {}): UserRecord {
  const suffix = uniqueSuffix();
  return {
    id: randomUUID(),
    version: 1,
    username: `u${suffix}`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: `ada.${suffix}@example.test`,
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

/** A brand record snapshot. */
export function aBrandRecord(overrides: Partial<BrandRecord> = {}): BrandRecord {
  const suffix = uniqueSuffix();
  return {
    id: randomUUID(),
    version: 1,
    username: `b${suffix}`,
    company: `Company ${suffix}`,
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

/** The envelope a producer would publish for a snapshot. */
export function anEnvelope<T extends { id: string; version: number }>(
  record: T,
  type: EventType = eventTypes.userUpdated,
): Envelope<T> {
  return {
    id: randomUUID(),
    type,
    source: 'bff-test',
    subject: record.id,
    time: new Date().toISOString(),
    version: record.version,
    data: record,
  };
}

/** A createAccount command for a new creator (CreateAccountCommand), with unique username and e-mail. */
export function aCreatorAccount(overrides: { email?: string } = {}) {
  const suffix = uniqueSuffix();
  const password = `pw-${suffix}`;
  return {
    isBrand: false as const,
    registration: {
      username: `c${suffix}`,
      email: overrides.email ?? `creator.${suffix}@example.test`,
      password,
      confirmPassword: password,
      agreeTerms: true,
    },
  };
}
