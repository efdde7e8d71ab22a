/** React access to the browser session (lib/session). */
import { useSyncExternalStore } from 'react';
import { getSessionSnapshot, subscribeSession, type SessionState } from '@/lib/session';

/** @returns the current session; re-renders on sign-in and sign-out (this tab or another). */
export function useSession(): SessionState {
  return useSyncExternalStore(subscribeSession, getSessionSnapshot);
}
