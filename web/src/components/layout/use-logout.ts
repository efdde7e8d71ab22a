/** Logout of spec §2: end the session, then send the user home. */
import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { paths } from '@/config/paths';
import { signOut } from '@/lib/session';

/** @returns a callback that signs out (never throws, see lib/session) and navigates to '/' */
export function useLogout(): () => Promise<void> {
  const navigate = useNavigate();
  return useCallback(async () => {
    await signOut();
    navigate(paths.home.path);
  }, [navigate]);
}
