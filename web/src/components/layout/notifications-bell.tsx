/**
 * The header's bell of signed-in users with its live badge: how many of
 * their notifications are unread (lib/notifications-api follows
 * `notifications.updated`, so reading in one tab clears it in every other).
 * It links to /notifications. Loaded only once signed in (it needs the live
 * queries and their socket).
 */
import { NavLink } from 'react-router-dom';
import { paths } from '@/config/paths';
import { useGetMeQuery } from '@/lib/me-api';
import { useGetInboxQuery } from '@/lib/notifications-api';
import type { SignedInNavLinkProps } from '@/components/layout/nav-items';
import { CountBadge } from '@/components/ui/count-badge';

export function NotificationsBell({
  className,
  onClick,
  showLabel = false,
}: SignedInNavLinkProps & {
  /** The word "Notifications" beside the bell (the mobile menu), else said to screen readers only. */
  showLabel?: boolean;
}) {
  const { data: me } = useGetMeQuery();
  const { data: inbox } = useGetInboxQuery(undefined, { skip: !me });
  if (!me) return null;
  const unread = inbox?.unread ?? 0;
  return (
    <NavLink
      to={paths.notifications.path}
      onClick={onClick}
      className={(state) => `inline-flex items-center ${className(state)}`}
      data-testid="notifications-bell"
    >
      <svg
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.5"
        aria-hidden="true"
        className="size-5"
      >
        <path
          strokeLinecap="round"
          strokeLinejoin="round"
          d="M14.857 17.082a23.848 23.848 0 0 0 5.454-1.31A8.967 8.967 0 0 1 18 9.75V9A6 6 0 0 0 6 9v.75a8.967 8.967 0 0 1-2.312 6.022c1.733.64 3.56 1.085 5.455 1.31m5.714 0a24.255 24.255 0 0 1-5.714 0m5.714 0a3 3 0 1 1-5.714 0"
        />
      </svg>
      <span className={showLabel ? 'ml-2' : 'sr-only'}>Notifications</span>
      {unread > 0 && <CountBadge count={unread} unit="unread" testId="notifications-badge" />}
    </NavLink>
  );
}
