/** Records with unique values for unit tests (spec §3 shapes). */
import { randomUUID } from 'node:crypto';
import type { UserRecord } from '@raly/contracts/records';

/** @returns a creator's user record with unique id, username and e-mail; `overrides` win */
export function aUser(overrides: Partial<UserRecord> = {}): UserRecord {
  return {
    id: randomUUID(),
    version: 1,
    username: `user${randomUUID().slice(0, 8)}`,
    firstName: '',
    lastName: '',
    email: `${randomUUID()}@example.com`,
    phoneNumber: '',
    profileImg: '',
    coverImg: '',
    interests: [],
    socials: { x: '', instagram: '', threads: '' },
    onboarding: { terms: false, interests: false, connects: false, wallet: false },
    permissions: {
      isInfluencer: false,
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
