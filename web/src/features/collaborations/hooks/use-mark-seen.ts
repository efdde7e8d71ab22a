/**
 * Marks a conversation seen up to the newest message of the other side
 * whenever that message is on screen: the page shows the conversation and the tab is visible
 * (a tab in the background marks nothing, so its unread badge stays true).
 */
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useMarkSeenMutation } from '@/features/collaborations/api/collaborations-api';

const subscribeVisibility = (onChange: () => void) => {
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
};
const isVisible = () => document.visibilityState === 'visible';

/**
 * @param seenSequence the reader's side's `seenSequence` on the record
 * @param newest the sequence of the newest message of the other side shown (0: none)
 */
export function useMarkSeen(collaborationId: string, seenSequence: number, newest: number): void {
  const visible = useSyncExternalStore(subscribeVisibility, isVisible);
  const [markSeen] = useMarkSeenMutation();
  // The highest sequence asked for, so a render before the answer asks nothing twice.
  const requested = useRef(0);
  useEffect(() => {
    if (!visible || newest <= seenSequence || newest <= requested.current) return;
    requested.current = newest;
    markSeen({ collaborationId, sequence: newest })
      .unwrap()
      .catch(() => {
        // Ask again at the next change (a new message, the tab shown again).
        requested.current = 0;
      });
  }, [visible, newest, seenSequence, collaborationId, markSeen]);
}
