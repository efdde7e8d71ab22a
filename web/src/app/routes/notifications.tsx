/** The notifications page of every signed-in user (/notifications), once GET /api/me has answered. */
import { WithMe } from '@/app/routes/with-me';
import { NotificationsPage } from '@/features/notifications/components/notifications-page';

export function NotificationsRoute() {
  return <WithMe>{() => <NotificationsPage />}</WithMe>;
}
