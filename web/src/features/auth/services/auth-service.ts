/**
 * The auth service of spec §8: login and password reset say only whether they
 * worked; a failure carries no message and is only logged (lib/service-outcome).
 * The one exception is a suspended account's sign-in (docs/console.md): login
 * then answers 'suspended', read from the BFF's 403 `permission-denied`
 * 'This account is suspended.', so the form can say so.
 * The forms turn the outcome into their own words ('Incorrect login',
 * 'This account is suspended.', 'There was a problem with your request.').
 * The calls are handed in, so the service has no React or store in it
 * (hooks/use-auth-service.ts binds the real ones).
 */
import { messages } from '@raly/contracts/messages';
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

/**
 * How a sign-in ended: `signed-in`; `suspended` when the BFF refused it because
 * the account is suspended; `refused` for any other failure (wrong credentials included).
 */
export type LoginOutcome = 'signed-in' | 'refused' | 'suspended';

export interface AuthService {
  /** @returns the sign-in's outcome; a failure is logged, with no message */
  login(credentials: LoginForm): Promise<LoginOutcome>;
  /** @returns true once the new password is set; false when the reset failed (logged, no message) */
  resetPassword(command: ResetPasswordRequest): Promise<boolean>;
}

/**
 * Whether a failed call is the BFF's refusal of a suspended account's sign-in.
 * @param error an RTK Query rejection (`{ status, data: { error: { code, message } } }`) or anything
 */
function isSuspendedRefusal(error: unknown): boolean {
  const body = (error as { data?: { error?: { code?: unknown; message?: unknown } } } | null)?.data
    ?.error;
  return body?.code === 'permission-denied' && body.message === messages.accountSuspended;
}

/** @param log where failures are written (default: console.error) */
export function createAuthService(calls: AuthCalls, log: FailureLog = logFailure): AuthService {
  return {
    login: async (credentials) => {
      let suspended = false;
      const signedIn = await succeeded(
        'login',
        async () => {
          const tokens = await calls.requestTokens(credentials).catch((error: unknown) => {
            suspended = isSuspendedRefusal(error);
            throw error;
          });
          await calls.startSession(tokens);
        },
        log,
      );
      if (signedIn) return 'signed-in';
      return suspended ? 'suspended' : 'refused';
    },
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
