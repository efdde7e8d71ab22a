/**
 * The auth service of spec §8: login and password reset answer true or
 * false; a failure carries no message and is only logged (lib/service-outcome).
 * The forms turn false into their own words ('Incorrect login', 'There was
 * a problem with your request.'). The calls are handed in, so the service
 * has no React or store in it (hooks/use-auth-service.ts binds the real ones).
 */
import type { LoginForm } from '@raly/contracts/validation';
import type { ResetPasswordRequest, TokenSet } from '@raly/contracts/bff-api';
import { logFailure, succeeded, type FailureLog } from '@/lib/service-outcome';

export interface AuthCalls {
  /** POST /api/auth/login: the token set, or throws. */
  requestTokens(credentials: LoginForm): Promise<TokenSet>;
  /** Starts the browser session from a token set. */
  startSession(tokens: TokenSet): Promise<void>;
  /** POST /api/auth/reset-password: true once the password is set, or throws. */
  resetPassword(command: ResetPasswordRequest): Promise<boolean>;
}

export interface AuthService {
  /** @returns true once signed in; false when the sign-in failed (logged, no message) */
  login(credentials: LoginForm): Promise<boolean>;
  /** @returns true once the new password is set; false when the reset failed (logged, no message) */
  resetPassword(command: ResetPasswordRequest): Promise<boolean>;
}

/** @param log where failures are written (default: console.error) */
export function createAuthService(calls: AuthCalls, log: FailureLog = logFailure): AuthService {
  return {
    login: (credentials) =>
      succeeded(
        'login',
        async () => calls.startSession(await calls.requestTokens(credentials)),
        log,
      ),
    resetPassword: (command) =>
      succeeded(
        'password reset',
        async () => {
          if ((await calls.resetPassword(command)) !== true) {
            throw new Error('the reset was not confirmed');
          }
        },
        log,
      ),
  };
}
