/**
 * Runs a command of the user (save, publish, apply, accept…) and tells its
 * outcome in the global toast (spec §2, §8): the success message, or the
 * returned error text (the BFF's `error.message`) when it fails.
 */
import { useCallback } from 'react';
import { useDispatch } from 'react-redux';
import { messages } from '@raly/contracts/messages';
import { apiErrorMessage } from '@/lib/api-error';
import { showToast } from '@/lib/toast';

/**
 * @returns `run(command, success)`: awaits `command()`, shows `success` or the
 *   error text (fallback 'Hmm, there was a problem. Try again.'), and resolves
 *   with the command's result, or undefined when it failed (never rejects)
 */
export function useCommandToast() {
  const dispatch = useDispatch();
  return useCallback(
    async <T>(command: () => Promise<T>, success: string): Promise<T | undefined> => {
      try {
        const result = await command();
        dispatch(showToast({ type: 'success', message: success }));
        return result;
      } catch (error) {
        dispatch(
          showToast({ type: 'alert', message: apiErrorMessage(error, messages.genericProblem) }),
        );
        return undefined;
      }
    },
    [dispatch],
  );
}
