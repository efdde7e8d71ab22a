/**
 * HTTP client of services/identity-profile (docs/api.md). The user's bearer
 * token is forwarded unchanged; identity's errors come back as AppErrors
 * with identity's own code, message, fields and status.
 */
import type { UserRecord } from '@raly/contracts/records';
import type { Config } from '../config';
import type { AppError } from '@raly/service-kit/errors';
import { failures } from '../errors/failures';
import { callUpstream, dataOf, type UpstreamAnswer } from './upstream';

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
  /** POST /password-resets/confirm `{ actionCode, password }` → true. @throws AppError as identity answered (400) */
  resetPassword(body: unknown): Promise<boolean>;
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
  const error = (answer.body as { error?: { code?: unknown; message?: unknown; fields?: unknown } } | undefined)
    ?.error;
  const code = typeof error?.code === 'string' ? error.code : 'internal';
  const message = typeof error?.message === 'string' ? error.message : fallbackMessage;
  const fields =
    error?.fields && typeof error.fields === 'object' ? (error.fields as Record<string, string>) : undefined;
  return failures.forwarded(code, message, answer.status, fields);
}

const isSuccess = (answer: UpstreamAnswer) => answer.status >= 200 && answer.status < 300;

/** @param config IDENTITY_URL and the upstream timeout */
export function createIdentityClient(config: Config): IdentityClient {
  const base = config.IDENTITY_URL.replace(/\/$/, '');
  const timeoutMs = config.UPSTREAM_TIMEOUT_MS;
  const expectData = <T>(answer: UpstreamAnswer, fallbackMessage: string): T => {
    if (!isSuccess(answer)) throw forwardedError(answer, fallbackMessage);
    return dataOf<T>(answer);
  };
  return {
    async createAccount(command) {
      const answer = await callUpstream(`${base}/accounts`, { method: 'POST', json: command, timeoutMs });
      return expectData(answer, 'identity-profile refused the account');
    },
    async getMyUser(accessToken) {
      const answer = await callUpstream(`${base}/users/me`, { method: 'GET', bearer: accessToken, timeoutMs });
      if (answer.status === 404) return null;
      return expectData(answer, 'identity-profile refused the read');
    },
    async updateMyUser(accessToken, changes) {
      const answer = await callUpstream(`${base}/users/me`, {
        method: 'PATCH',
        json: changes,
        bearer: accessToken,
        timeoutMs,
      });
      return expectData(answer, 'identity-profile refused the update');
    },
    async completeOnboardingStep(accessToken, step) {
      const answer = await callUpstream(`${base}/users/me/onboarding`, {
        method: 'PATCH',
        json: { step, value: true },
        bearer: accessToken,
        timeoutMs,
      });
      return expectData(answer, 'identity-profile refused the onboarding step');
    },
    async updateInterests(accessToken, body) {
      const answer = await callUpstream(`${base}/users/me/interests`, {
        method: 'PUT',
        json: body ?? {},
        bearer: accessToken,
        timeoutMs,
      });
      return expectData(answer, 'identity-profile refused the interests');
    },
    async recordLogin(accessToken) {
      const answer = await callUpstream(`${base}/users/me/login-recorded`, {
        method: 'POST',
        bearer: accessToken,
        timeoutMs,
      });
      return expectData(answer, 'identity-profile refused to record the sign-in');
    },
    async sendResetPasswordLink(body) {
      const answer = await callUpstream(`${base}/password-resets`, { method: 'POST', json: body ?? {}, timeoutMs });
      return expectData(answer, 'identity-profile refused the reset link');
    },
    async resetPassword(body) {
      const answer = await callUpstream(`${base}/password-resets/confirm`, {
        method: 'POST',
        json: body ?? {},
        timeoutMs,
      });
      return expectData(answer, 'identity-profile refused the reset');
    },
    async checkEmailExists(email) {
      const answer = await callUpstream(`${base}/queries/check-email-exists`, {
        method: 'POST',
        json: { email },
        timeoutMs,
      });
      return expectData(answer, 'identity-profile refused the query');
    },
    async checkUsernameExists(username) {
      const answer = await callUpstream(`${base}/queries/check-username-exists`, {
        method: 'POST',
        json: { username },
        timeoutMs,
      });
      return expectData(answer, 'identity-profile refused the query');
    },
  };
}
