/**
 * A person's notification preferences (docs/product-spec.md §12.5), by
 * category and channel. Everything is on by default, so a row of
 * `notification_preferences` is one switch turned off and turning it on again
 * deletes the row. Turning the digest's e-mail off (the one-click unsubscribe
 * of RFC 8058, or the settings) cancels the person's digests still waiting in
 * the mail outbox, in the same transaction.
 */
import {
  CATEGORY_OF_KIND,
  defaultNotificationPreferences,
  type NotificationCategory,
  type NotificationChannel,
  type NotificationPreferences,
  type PreferenceSwitch,
} from '@raly/contracts/notifications';
import { Prisma, type PrismaClient } from '../generated/prisma/client';

export interface PreferenceStore {
  /** @returns `personId`'s switches (all on for a person who never changed one) */
  of(personId: string): Promise<NotificationPreferences>;
  /**
   * Sets `switches` of `personId` (again: nothing changes) in one transaction; turning
   * `digest`/`email` off also cancels their pending digest e-mails.
   * @returns the switches after the change and how many waiting e-mails were cancelled
   */
  set(
    personId: string,
    switches: PreferenceSwitch[],
  ): Promise<{ preferences: NotificationPreferences; cancelled: number }>;
  /** @returns whether `personId` has `channel` of `category` on */
  isOn(
    personId: string,
    category: NotificationCategory,
    channel: NotificationChannel,
  ): Promise<boolean>;
}

/**
 * The category of the item kind in `kindColumn` (a column of type "NotificationKind"), as SQL
 * text comparable with `category::text`: the contracts' CATEGORY_OF_KIND, written out, so the
 * mapping lives in one place. A kind without a category is NULL, equal to no switch, so no
 * switch turns it off. Only constant identifiers go into the text.
 */
export function categoryOfKindSql(kindColumn: 'n.kind' | 't.kind'): Prisma.Sql {
  const arms = Object.entries(CATEGORY_OF_KIND)
    .filter(([, category]) => category !== null)
    .map(([kind, category]) => `WHEN '${kind}' THEN '${category}'`);
  return Prisma.raw(`(CASE ${kindColumn}::text ${arms.join(' ')} END)`);
}

/** The switches turned off (the stored rows) laid over the defaults. */
function preferencesOf(
  offs: { category: NotificationCategory; channel: NotificationChannel }[],
): NotificationPreferences {
  const preferences = defaultNotificationPreferences();
  for (const { category, channel } of offs) {
    const channels = preferences[category] as Partial<Record<NotificationChannel, boolean>>;
    if (channel in channels) channels[channel] = false;
  }
  return preferences;
}

/** @param prisma this service's client */
export function preferenceStore(prisma: PrismaClient): PreferenceStore {
  const select = { category: true, channel: true } as const;
  return {
    async of(personId) {
      return preferencesOf(
        await prisma.notificationPreference.findMany({ where: { personId }, select }),
      );
    },
    set(personId, switches) {
      return prisma.$transaction(async (tx) => {
        const off = switches.filter((change) => !change.enabled);
        const on = switches.filter((change) => change.enabled);
        if (off.length > 0)
          await tx.notificationPreference.createMany({
            data: off.map(({ category, channel }) => ({ personId, category, channel })),
            skipDuplicates: true,
          });
        if (on.length > 0)
          await tx.notificationPreference.deleteMany({
            where: {
              personId,
              OR: on.map(({ category, channel }) => ({ category, channel })),
            },
          });
        let cancelled = 0;
        if (off.some((change) => change.category === 'digest')) {
          // Every e-mail of the outbox is a digest.
          ({ count: cancelled } = await tx.mailOutbox.updateMany({
            where: { recipientId: personId, status: 'pending' },
            data: { status: 'cancelled', lastError: 'unsubscribed' },
          }));
        }
        const rows = await tx.notificationPreference.findMany({ where: { personId }, select });
        return { preferences: preferencesOf(rows), cancelled };
      });
    },
    async isOn(personId, category, channel) {
      const row = await prisma.notificationPreference.findUnique({
        where: { personId_category_channel: { personId, category, channel } },
        select: { personId: true },
      });
      return row === null;
    },
  };
}
