/**
 * HTTP client of services/identity-profile (docs/api.md). Every call carries
 * the service token (`INTERNAL_SERVICE_TOKEN` in `x-raly-service-token`):
 * registration, reset links and the queries are internal endpoints there.
 * The user's bearer token is forwarded unchanged; identity's errors come
 * back as AppErrors with identity's own code, message, fields and status.
 */
import { INTERNAL_TOKEN_HEADER } from '@raly/contracts/internal';
import type { UserRecord } from '@raly/contracts/records';
import type { Config } from '../config';
import type { AppError } from '@raly/service-kit/errors';
import { failures } from '../errors/failures';
import { callUpstream, dataOf, type UpstreamAnswer, type UpstreamRequest } from './upstream';

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
  /** POST /queries/check-email-exists → true when an account uses the e-mail. */
  checkEmailExists(email: string): Promise<boolean>;
  /** POST /queries/check-username-exists → true when the username is taken. */
  checkUsernameExists(username: string): Promise<boolean>;
}

/**
 * Rebuilds identity's error answer as an AppError, unchanged.
 * @param answer a non-2xx answer
 * @param fallbackMessage used when the body lacks `error.message`
 */
export function forwardedError(answer: UpstreamAnswer, fallbackMessage: string): AppError {
  const error = (
    answer.body as { error?: { code?: unknown; message?: unknown; fields?: unknown } } | undefined
  )?.error;
  const code = typeof error?.code === 'string' ? error.code : 'internal';
  const message = typeof error?.message === 'string' ? error.message : fallbackMessage;
  const fields =
    error?.fields && typeof error.fields === 'object'
      ? (error.fields as Record<string, string>)
      : undefined;
  return failures.forwarded(code, message, answer.status, fields);
}

const isSuccess = (answer: UpstreamAnswer) => answer.status >= 200 && answer.status < 300;

/** @param config IDENTITY_URL, INTERNAL_SERVICE_TOKEN and the upstream timeout */
export function createIdentityClient(config: Config): IdentityClient {
  const base = config.IDENTITY_URL.replace(/\/$/, '');
  const timeoutMs = config.UPSTREAM_TIMEOUT_MS;
  const headers = { [INTERNAL_TOKEN_HEADER]: config.INTERNAL_SERVICE_TOKEN };
  const expectData = <T>(answer: UpstreamAnswer, fallbackMessage: string): T => {
    if (!isSuccess(answer)) throw forwardedError(answer, fallbackMessage);
    return dataOf<T>(answer);
  };
  /** One call to identity whose 2xx answer's `data` is the result. */
  const send = async <T>(
    method: UpstreamRequest['method'],
    path: string,
    request: Pick<UpstreamRequest, 'json' | 'bearer'>,
    fallbackMessage: string,
  ): Promise<T> =>
    expectData<T>(
      await callUpstream(`${base}${path}`, { method, ...request, headers, timeoutMs }),
      fallbackMessage,
    );
  return {
    createAccount: (command) =>
      send('POST', '/accounts', { json: command }, 'identity-profile refused the account'),
    async getMyUser(accessToken) {
      const answer = await callUpstream(`${base}/users/me`, {
        method: 'GET',
        bearer: accessToken,
        headers,
        timeoutMs,
      });
      if (answer.status === 404) return null;
      return expectData(answer, 'identity-profile refused the read');
    },
    updateMyUser: (accessToken, changes) =>
      send(
        'PATCH',
        '/users/me',
        { json: changes, bearer: accessToken },
        'identity-profile refused the update',
      ),
    completeOnboardingStep: (accessToken, step) =>
      send(
        'PATCH',
        '/users/me/onboarding',
        { json: { step, value: true }, bearer: accessToken },
        'identity-profile refused the onboarding step',
      ),
    updateInterests: (accessToken, body) =>
      send(
        'PUT',
        '/users/me/interests',
        { json: body ?? {}, bearer: accessToken },
        'identity-profile refused the interests',
      ),
    recordLogin: (accessToken) =>
      send(
        'POST',
        '/users/me/login-recorded',
        { bearer: accessToken },
        'identity-profile refused to record the sign-in',
      ),
    sendResetPasswordLink: (body) =>
      send(
        'POST',
        '/password-resets',
        { json: body ?? {} },
        'identity-profile refused the reset link',
      ),
    resetPassword: (body) =>
      send(
        'POST',
        '/password-resets/confirm',
        { json: body ?? {} },
        'identity-profile refused the reset',
      ),
    checkEmailExists: (email) =>
      send(
        'POST',
        '/queries/check-email-exists',
        { json: { email } },
        'identity-profile refused the query',
      ),
    checkUsernameExists: (username) =>
      send(
        'POST',
        '/queries/check-username-exists',
        { json: { username } },
        'identity-profile refused the query',
      ),
  };
}
