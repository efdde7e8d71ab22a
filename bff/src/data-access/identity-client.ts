/**
 * HTTP client of services/identity-profile (docs/api.md). Every call carries
 * the BFF's own access token (client credentials of `raly-bff-service`, in
 * `x-raly-service-token`): registration, reset links and the queries are
 * internal endpoints there.
 * The user's bearer token is forwarded unchanged; identity's errors come
 * back as AppErrors with identity's own code, message, fields and status
 * (the kit's `dataOf`); no answer is 503 `unavailable`.
 */
import type { PublicCreatorProfile } from '@raly/contracts/offers';
import type { InvitationPreview } from '@raly/contracts/teams';
import type { UserRecord } from '@raly/contracts/records';
import type {
  BrandContactView,
  BrandContactViewCommand,
  ConsoleCreator,
  CreatorContactView,
  CreatorContactViewCommand,
  CreatorFlagsCommand,
  SuspensionCommand,
} from '@raly/contracts/internal';
import {
  callInternal,
  dataOf,
  serviceTokenSourceOf,
  type HttpCallOptions,
} from '@raly/service-kit/internal';
import { servicePath } from '@raly/service-kit/service-path';
import type { Config } from '../config';

export interface IdentityClient {
  /** POST /accounts → the new user's id. @throws AppError as identity answered */
  createAccount(command: unknown): Promise<{ userId: string }>;
  /** GET /users/me as the token's user → the record, or null on 404. @throws AppError as identity answered */
  getMyUser(accessToken: string): Promise<UserRecord | null>;
  /** PATCH /users/me → the updated record. @throws AppError as identity answered */
  updateMyUser(accessToken: string, changes: unknown): Promise<UserRecord>;
  /** PATCH /users/me/onboarding `{ step, value: true }` → the updated record. @throws AppError as identity answered */
  completeOnboardingStep(accessToken: string, step: unknown): Promise<UserRecord>;
  /** PUT /users/me/interests `{ interests }` → the updated record. @throws AppError as identity answered */
  updateInterests(accessToken: string, body: unknown): Promise<UserRecord>;
  /** POST /users/me/login-recorded → the record with lastLogin now. @throws AppError as identity answered */
  recordLogin(accessToken: string): Promise<UserRecord>;
  /** POST /password-resets `{ email }` → true once the link is mailed. @throws AppError as identity answered (404 unknown e-mail) */
  sendResetPasswordLink(body: unknown): Promise<boolean>;
  /** POST /password-resets/confirm `{ actionCode, password }` → whose password changed. @throws AppError as identity answered (400) */
  resetPassword(body: unknown): Promise<{ userId: string }>;
  /**
   * GET /public/users/:username → a creator's public profile.
   * @throws AppError as identity answered: not-found with the page-not-found text for an unknown
   *   username, not-found 'This creator is unavailable.' for a suspended creator
   */
  getPublicCreator(username: string): Promise<PublicCreatorProfile>;
  /** POST /queries/check-email-exists → true when an account uses the e-mail. */
  checkEmailExists(email: string): Promise<boolean>;
  /** POST /queries/check-username-exists → true when the username is taken. */
  checkUsernameExists(username: string): Promise<boolean>;
  /** POST /accounts/members → the new member's id. @throws AppError as identity answered */
  createMemberAccount(registration: unknown): Promise<{ userId: string }>;
  /** POST /queries/invitation-preview `{ token }`. @throws AppError as identity answered (404, 409) */
  previewInvitation(body: unknown): Promise<InvitationPreview>;
  /** POST /users/me/team `{ token, handle }` → the record after joining. @throws AppError as identity answered */
  joinTeam(accessToken: string, body: unknown): Promise<UserRecord>;
  /** POST /brand-memberships/sync → the user's record after following the brand's membership. */
  syncMembership(userId: string, brandId: string): Promise<UserRecord>;
  /**
   * PUT /users/:id/suspension (internal): a staff decision on a creator (docs/console.md);
   * identity-profile also ends the suspended creator's Keycloak sessions.
   * @returns the creator's record after it
   * @throws AppError as identity answered (404 'No such creator.', 400)
   */
  decideCreatorSuspension(userId: string, command: SuspensionCommand): Promise<UserRecord>;
  /**
   * PUT /users/:id/flags (internal): an administrator's flags, with the staff member.
   * @throws AppError as identity answered (404, 400)
   */
  setCreatorFlags(userId: string, command: CreatorFlagsCommand): Promise<UserRecord>;
  /**
   * GET /creators?query= (internal, service token) → at most 20 creators whose username starts
   * with `query` or whose e-mail is `query`, ignoring case (public profile and flags only).
   * @throws AppError as identity answered (400 a bad query)
   */
  searchCreators(query: string): Promise<ConsoleCreator[]>;
  /**
   * POST /users/:id/contact-view (internal): a creator's contact details; identity records the
   * view's audit entry. @throws AppError as identity answered (404 'No such creator.', 400)
   */
  viewCreatorContact(
    userId: string,
    command: CreatorContactViewCommand,
  ): Promise<CreatorContactView>;
  /**
   * POST /brands/:brandId/contact-view (internal): a brand's members' contact details; identity
   * records the view's audit entry. @throws AppError as identity answered (404 'No such brand.', 400)
   */
  viewBrandContacts(brandId: string, command: BrandContactViewCommand): Promise<BrandContactView>;
  /** POST /sessions/end (internal): ends each user's Keycloak sessions. @throws AppError as identity answered */
  endSessions(userIds: string[]): Promise<{ ended: number }>;
}

/** @param config IDENTITY_URL, Keycloak and the BFF's service client, and the upstream timeout */
export function createIdentityClient(config: Config): IdentityClient {
  const serviceTokens = serviceTokenSourceOf(config);
  const call = (path: string[], request: Pick<HttpCallOptions, 'method' | 'json' | 'bearer'>) =>
    callInternal(config.IDENTITY_URL, serviceTokens, servicePath(path), {
      ...request,
      timeoutMs: config.UPSTREAM_TIMEOUT_MS,
      target: 'identity-profile',
      unreachable: 'unavailable',
    });
  /** One call to identity whose 2xx answer's `data` is the result. */
  const send = async <T>(
    method: HttpCallOptions['method'],
    path: string[],
    request: Pick<HttpCallOptions, 'json' | 'bearer'>,
    fallbackMessage: string,
  ): Promise<T> => dataOf<T>(await call(path, { method, ...request }), fallbackMessage);
  return {
    searchCreators: async (query) =>
      dataOf<ConsoleCreator[]>(
        await callInternal(
          config.IDENTITY_URL,
          serviceTokens,
          servicePath(['creators'], { query }),
          {
            method: 'GET',
            timeoutMs: config.UPSTREAM_TIMEOUT_MS,
            target: 'identity-profile',
            unreachable: 'unavailable',
          },
        ),
        'identity-profile refused the search',
      ),
    decideCreatorSuspension: (userId, command) =>
      send(
        'PUT',
        ['users', userId, 'suspension'],
        { json: command },
        'identity-profile refused the suspension',
      ),
    setCreatorFlags: (userId, command) =>
      send(
        'PUT',
        ['users', userId, 'flags'],
        { json: command },
        'identity-profile refused the flags',
      ),
    viewCreatorContact: (userId, command) =>
      send(
        'POST',
        ['users', userId, 'contact-view'],
        { json: command },
        'identity-profile refused the contact view',
      ),
    viewBrandContacts: (brandId, command) =>
      send(
        'POST',
        ['brands', brandId, 'contact-view'],
        { json: command },
        'identity-profile refused the contact view',
      ),
    endSessions: (userIds) =>
      send(
        'POST',
        ['sessions', 'end'],
        { json: { userIds } },
        'identity-profile refused to end sessions',
      ),
    createAccount: (command) =>
      send('POST', ['accounts'], { json: command }, 'identity-profile refused the account'),
    async getMyUser(accessToken) {
      const answer = await call(['users', 'me'], { method: 'GET', bearer: accessToken });
      if (answer.status === 404) return null;
      return dataOf<UserRecord>(answer, 'identity-profile refused the read');
    },
    updateMyUser: (accessToken, changes) =>
      send(
        'PATCH',
        ['users', 'me'],
        { json: changes, bearer: accessToken },
        'identity-profile refused the update',
      ),
    completeOnboardingStep: (accessToken, step) =>
      send(
        'PATCH',
        ['users', 'me', 'onboarding'],
        { json: { step, value: true }, bearer: accessToken },
        'identity-profile refused the onboarding step',
      ),
    updateInterests: (accessToken, body) =>
      send(
        'PUT',
        ['users', 'me', 'interests'],
        { json: body ?? {}, bearer: accessToken },
        'identity-profile refused the interests',
      ),
    recordLogin: (accessToken) =>
      send(
        'POST',
        ['users', 'me', 'login-recorded'],
        { bearer: accessToken },
        'identity-profile refused to record the sign-in',
      ),
    sendResetPasswordLink: (body) =>
      send(
        'POST',
        ['password-resets'],
        { json: body ?? {} },
        'identity-profile refused the reset link',
      ),
    resetPassword: (body) =>
      send(
        'POST',
        ['password-resets', 'confirm'],
        { json: body ?? {} },
        'identity-profile refused the reset',
      ),
    async getPublicCreator(username) {
      const answer = await call(['public', 'users', username], { method: 'GET' });
      return dataOf<PublicCreatorProfile>(answer, 'identity-profile refused the read');
    },
    checkEmailExists: (email) =>
      send(
        'POST',
        ['queries', 'check-email-exists'],
        { json: { email } },
        'identity-profile refused the query',
      ),
    createMemberAccount: (registration) =>
      send(
        'POST',
        ['accounts', 'members'],
        { json: registration ?? {} },
        'identity-profile refused the account',
      ),
    previewInvitation: (body) =>
      send(
        'POST',
        ['queries', 'invitation-preview'],
        { json: body ?? {} },
        'identity-profile refused the invitation',
      ),
    joinTeam: (accessToken, body) =>
      send(
        'POST',
        ['users', 'me', 'team'],
        { json: body ?? {}, bearer: accessToken },
        'identity-profile refused the invitation',
      ),
    syncMembership: (userId, brandId) =>
      send(
        'POST',
        ['brand-memberships', 'sync'],
        { json: { userId, brandId } },
        'identity-profile refused the membership sync',
      ),
    checkUsernameExists: (username) =>
      send(
        'POST',
        ['queries', 'check-username-exists'],
        { json: { username } },
        'identity-profile refused the query',
      ),
  };
}
