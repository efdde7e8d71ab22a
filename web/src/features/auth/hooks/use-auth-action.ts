/** The /auth/action link the page was opened with (spec §2). */
import { useSearchParams } from 'react-router-dom';
import { readAuthAction, type AuthAction } from '@/features/auth/utils/auth-action';

/** @returns apiKey, mode and oobCode of the current URL, or null when any is missing */
export function useAuthAction(): AuthAction | null {
  const [search] = useSearchParams();
  return readAuthAction(search);
}
