/**
 * The end of every registration form (spec §2, §8): the created account's
 * TokenSet starts the browser session and the user goes to the dashboard;
 * a refusal shows the BFF's text (else 'createAccountFailed') in the toast.
 */
import { useCallback, useState } from 'react';
import { useDispatch } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import type { TokenSet } from '@raly/contracts/bff-api';
import { messages } from '@raly/contracts/messages';
import { paths } from '@/config/paths';
import { apiErrorMessage } from '@/lib/api-error';
import { signIn } from '@/lib/session';
import { showToast } from '@/lib/toast';

/**
 * @returns `registerAndSignIn(create)`: awaits `create()` (the registration
 *   call answering a TokenSet), signs in and navigates; never rejects; and
 *   `signingIn`, true from the answer until the page changes
 */
export function useRegisterAndSignIn() {
  const dispatch = useDispatch();
  const navigate = useNavigate();
  const [signingIn, setSigningIn] = useState(false);
  const registerAndSignIn = useCallback(
    async (create: () => Promise<TokenSet>): Promise<void> => {
      try {
        const tokens = await create();
        setSigningIn(true);
        await signIn(tokens);
        navigate(paths.dashboard.path);
      } catch (error) {
        setSigningIn(false);
        const message = apiErrorMessage(error, messages.createAccountFailed);
        dispatch(showToast({ type: 'alert', title: 'Registration failed', message }));
      }
    },
    [dispatch, navigate],
  );
  return { signingIn, registerAndSignIn };
}
