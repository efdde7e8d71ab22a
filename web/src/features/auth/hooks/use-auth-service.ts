/** The auth service (spec §8) bound to the BFF's calls and the browser session. */
import { useMemo } from 'react';
import { signIn } from '@/lib/session';
import { useLoginMutation, useResetPasswordMutation } from '@/features/auth/api/auth-api';
import { createAuthService, type AuthService } from '@/features/auth/services/auth-service';

/** @returns `login` and `resetPassword`, each answering true or false */
export function useAuthService(): AuthService {
  const [login] = useLoginMutation();
  const [resetPassword] = useResetPasswordMutation();
  return useMemo(
    () =>
      createAuthService({
        requestTokens: (credentials) => login(credentials).unwrap(),
        startSession: signIn,
        resetPassword: (command) => resetPassword(command).unwrap(),
      }),
    [login, resetPassword],
  );
}
