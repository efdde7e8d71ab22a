/**
 * Spec §2: failed validation on a long form scrolls to the top, so the user
 * sees the first message. Pass the returned callback as react-hook-form's
 * `onInvalid`: `handleSubmit(onSubmit, scrollToTop)`.
 */
import { useCallback } from 'react';

/**
 * Scrolls the window to the top.
 * @param behavior 'smooth', or 'auto' when the user asked for reduced motion
 */
export function scrollWindowToTop(behavior: ScrollBehavior = preferredScrollBehavior()): void {
  window.scrollTo({ top: 0, behavior });
}

function preferredScrollBehavior(): ScrollBehavior {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
}

/** @returns a stable `onInvalid` handler for long forms: scrolls the window to the top */
export function useScrollToTopOnError(): () => void {
  return useCallback(() => scrollWindowToTop(), []);
}
