/**
 * A person's notification preferences over HTTP (docs/product-spec.md §12.5,
 * docs/api.md "services/notifications"): which categories reach them in the
 * app and by e-mail. Always the caller's own; the account form's
 * `notifications.offers` (identity-profile) stays the master switch of offers.
 */
import {
  notificationPreferencesUpdateSchema,
  switchesOf,
  type NotificationPreferences,
} from '@raly/contracts/notifications';
import type { Caller } from '@raly/service-kit/auth';
import type { NotificationsDependencies } from './dependencies';

/** `GET /preferences`: the caller's switches, every category with each of its channels. */
export function myPreferences(
  dependencies: NotificationsDependencies,
  caller: Caller,
): Promise<NotificationPreferences> {
  return dependencies.preferences.of(caller.userId);
}

/**
 * `PUT /preferences`: sets the switches the body names (the others stay as they are).
 * Turning the digest's e-mail off cancels the caller's digest waiting to be sent.
 * @param body e.g. `{ "collaborations": { "email": false } }` (notificationPreferencesUpdateSchema)
 * @returns all of the caller's switches after the change
 * @throws ZodError (400 messages.notificationPreferencesInvalid) for an unknown category or
 *   channel, a value that is not a boolean, or nothing to change
 */
export async function updateMyPreferences(
  dependencies: NotificationsDependencies,
  caller: Caller,
  body: unknown,
): Promise<NotificationPreferences> {
  const switches = switchesOf(notificationPreferencesUpdateSchema.parse(body));
  const { preferences, cancelled } = await dependencies.preferences.set(caller.userId, switches);
  dependencies.logger.info({ personId: caller.userId, switches, cancelled }, 'preferences changed');
  return preferences;
}
