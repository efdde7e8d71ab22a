/**
 * Real users for benchmarks: creators and brands registered through
 * identity-profile (POST /accounts, so Keycloak holds them), onboarded when
 * asked, with fresh access tokens; all removed from Keycloak at the end
 * (their e-mails carry the run's marker).
 */
import {
  brandRegistration,
  dataOf,
  passwordGrant,
  uniqueToken,
  type TestStack,
} from '@raly/test-support';
import { deleteFuzzUsers } from '@raly/test-support/fuzz';
import { registeredCreator } from '@raly/test-support/system';
import type { Interest } from '@raly/contracts/constants';
import type { BenchSystem } from './bench-system';
import { inParallel } from './stats';

export interface BenchUser {
  userId: string;
  email: string;
  password: string;
  accessToken: string;
}

/** Where users are registered: identity-profile, the BFF's service token and the stack's Keycloak. */
export type UserTarget = Pick<BenchSystem, 'stack' | 'serviceToken' | 'identityUrl'>;

const log = (line: string) => process.stdout.write(`[bench] ${line}\n`);

/** A marker for this run's e-mails (so its users can be found and deleted). */
export const runMarker = `bench${uniqueToken(8)}`;

/**
 * Registers `count` creators (8 at a time); when `interestsOf` is given each is
 * onboarded (terms, connects, wallet) and given those interests.
 * @param emailPrefix starts their e-mails (`<prefix>-<index>-<run marker>@raly.test`):
 *   creators registered twice in one run need two prefixes
 */
export async function registerCreators(
  system: UserTarget,
  count: number,
  interestsOf?: (index: number) => Interest[],
  emailPrefix = 'creator',
): Promise<BenchUser[]> {
  let done = 0;
  return inParallel(
    Array.from({ length: count }, (_, index) => index),
    8,
    async (index) => {
      const creator = await registeredCreator(system, {
        email: `${emailPrefix}-${index}-${runMarker}@raly.test`,
      });
      if (interestsOf) {
        const bearer = { token: creator.accessToken };
        for (const step of ['terms', 'connects', 'wallet'])
          await dataOf(system.identityUrl, 'PATCH', '/users/me/onboarding', {
            ...bearer,
            body: { step, value: true },
          });
        await dataOf(system.identityUrl, 'PUT', '/users/me/interests', {
          ...bearer,
          body: { interests: interestsOf(index) },
        });
      }
      done += 1;
      if (done % 100 === 0) log(`registered ${done} of ${count} creators`);
      return {
        userId: creator.userId,
        email: creator.registration.email,
        password: creator.registration.password,
        accessToken: creator.accessToken,
      };
    },
  );
}

/**
 * Registers a brand (its admin signed in).
 * @param index tells several brands of one run apart (their e-mails)
 */
export async function registerBrand(system: UserTarget, index = 0): Promise<BenchUser> {
  const registration = brandRegistration({
    email: index === 0 ? `brand-${runMarker}@raly.test` : `brand-${index}-${runMarker}@raly.test`,
  });
  const { userId } = await dataOf<{ userId: string }>(system.identityUrl, 'POST', '/accounts', {
    serviceToken: system.serviceToken,
    body: { isBrand: true, registration },
  });
  const grant = await passwordGrant(system.stack, registration.email, registration.password);
  return {
    userId,
    email: registration.email,
    password: registration.password,
    accessToken: grant.access_token,
  };
}

/** New access tokens (5 minutes long) for users, 8 grants at a time; updates them in place. */
export async function refreshTokens(stack: TestStack, users: BenchUser[]): Promise<void> {
  await inParallel(users, 8, async (user) => {
    user.accessToken = (await passwordGrant(stack, user.email, user.password)).access_token;
  });
}

/**
 * Deletes this run's users from Keycloak (its search is by prefix unless
 * wrapped in `*`, and answers 1000 users at a time).
 */
export async function deleteRunUsers(stack: TestStack): Promise<number> {
  let deleted = 0;
  for (let round = 0; round < 50; round += 1) {
    const count = await deleteFuzzUsers(stack, `*${runMarker}*`).catch(() => 0);
    deleted += count;
    if (count === 0) break;
  }
  return deleted;
}
