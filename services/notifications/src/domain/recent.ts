/** The age limit of notified facts (NOTIFICATIONS_MAX_AGE_HOURS). */
import type { NotificationsDependencies } from './dependencies';

/**
 * @param at an ISO date of when the fact happened
 * @returns true when it is recent enough to notify anyone of (an unreadable date counts as recent)
 */
export function isRecent(
  dependencies: Pick<NotificationsDependencies, 'maxAgeMs' | 'now'>,
  at: string,
): boolean {
  const time = Date.parse(at);
  return Number.isNaN(time) || dependencies.now().getTime() - time <= dependencies.maxAgeMs;
}
