/**
 * The notification preferences of /settings/notifications
 * (docs/product-spec.md §12.5): a table of categories (rows, each with a
 * one-line explanation) by channel (columns 'In app' and 'E-mail'), one
 * checkbox per switch, and 'Save', which sends the switches changed and
 * answers with a toast ('Notification settings saved.' or the error's text).
 * Brand users never see offers. The account form's 'Offers' switch stays
 * the master switch of offers: while it is off, the offers row says so and
 * its checkboxes are disabled. E-mails are digests of the in-app items, so a
 * category's e-mail checkbox is disabled (and shows off) while its in-app
 * one or the e-mail digest is off.
 */
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useDispatch } from 'react-redux';
import { messages } from '@raly/contracts/messages';
import {
  CHANNELS_OF_CATEGORY,
  NOTIFICATION_CATEGORIES,
  NOTIFICATION_CHANNELS,
  type NotificationCategory,
  type NotificationChannel,
  type NotificationPreferences,
  type NotificationPreferencesUpdate,
} from '@raly/contracts/notifications';
import { paths } from '@/config/paths';
import { apiErrorMessage } from '@/lib/api-error';
import { showToast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import { useUpdateNotificationPreferencesMutation } from '@/features/settings/api/notification-preferences-api';

/** Each category's row: its name and what it covers. */
export const categoryRows: Record<NotificationCategory, { label: string; explanation: string }> = {
  offers: { label: 'New offers', explanation: 'Offers that open in one of your interests.' },
  applications: {
    label: 'Applications',
    explanation: 'Applications received, accepted, declined or withdrawn.',
  },
  collaborations: {
    label: 'Collaborations',
    explanation: 'Messages, submissions, change requests, approvals, payments, reviews, reminders.',
  },
  digest: {
    label: 'E-mail digest',
    explanation: 'At most one e-mail an hour of what you missed while away. Off: no e-mails.',
  },
};

const channelLabels: Record<NotificationChannel, string> = { in_app: 'In app', email: 'E-mail' };

type Switches = Record<NotificationCategory, Partial<Record<NotificationChannel, boolean>>>;

/** The switches of `next` that differ from `saved`, as a PUT body. */
function changesOf(saved: Switches, next: Switches): NotificationPreferencesUpdate {
  const update: Switches = { offers: {}, applications: {}, collaborations: {}, digest: {} };
  let any = false;
  for (const category of NOTIFICATION_CATEGORIES)
    for (const channel of CHANNELS_OF_CATEGORY[category])
      if (saved[category][channel] !== next[category][channel]) {
        update[category][channel] = next[category][channel];
        any = true;
      }
  if (!any) return {};
  return Object.fromEntries(
    Object.entries(update).filter(([, channels]) => Object.keys(channels).length > 0),
  ) as NotificationPreferencesUpdate;
}

export interface NotificationPreferencesFormProps {
  preferences: NotificationPreferences;
  /** A brand user: no offers row (brands get no offer notifications, spec §6). */
  brandUser: boolean;
  /** The account form's `notifications.offers` (creators): false disables the offers row. */
  offersOn: boolean;
}

export function NotificationPreferencesForm({
  preferences,
  brandUser,
  offersOn,
}: NotificationPreferencesFormProps) {
  const [values, setValues] = useState<Switches>(preferences);
  const [update, { isLoading: saving }] = useUpdateNotificationPreferencesMutation();
  const dispatch = useDispatch();
  const changes = changesOf(preferences, values);
  const categories = NOTIFICATION_CATEGORIES.filter(
    (category) => !(brandUser && category === 'offers'),
  );

  const toggle = (category: NotificationCategory, channel: NotificationChannel) =>
    setValues((current) => ({
      ...current,
      [category]: { ...current[category], [channel]: !current[category][channel] },
    }));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      setValues(await update(changes).unwrap());
      dispatch(showToast({ type: 'success', message: messages.notificationPreferencesSaved }));
    } catch (error) {
      dispatch(
        showToast({ type: 'alert', message: apiErrorMessage(error, messages.genericProblem) }),
      );
    }
  };

  /** Why a checkbox is disabled, or null when it is not. */
  const blockedBy = (category: NotificationCategory, channel: NotificationChannel) => {
    if (category === 'offers' && !offersOn) return 'offers-off';
    if (channel === 'email' && category !== 'digest') {
      if (values.digest.email === false) return 'digest-off';
      if (values[category].in_app === false) return 'in-app-off';
    }
    return null;
  };

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      className="space-y-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200"
    >
      <h2 id="notification-preferences" className="text-lg font-semibold text-slate-900">
        Notifications
      </h2>
      <p className="text-sm text-slate-600">
        Choose what reaches you in Raly and by e-mail. E-mails are digests of the notifications you
        missed in the app.
      </p>
      <table aria-labelledby="notification-preferences" className="w-full text-left text-sm">
        <thead>
          <tr className="border-b border-slate-200">
            <th scope="col" className="py-2 pr-4 font-medium text-slate-700">
              Notification
            </th>
            {NOTIFICATION_CHANNELS.map((channel) => (
              <th
                key={channel}
                scope="col"
                className="w-24 py-2 text-center font-medium text-slate-700"
              >
                {channelLabels[channel]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {categories.map((category) => {
            const row = categoryRows[category];
            return (
              <tr key={category} className="border-b border-slate-100 last:border-0">
                <th scope="row" className="py-3 pr-4 align-top font-normal">
                  <span className="block font-medium text-slate-900">{row.label}</span>
                  <span id={`${category}-explanation`} className="block text-slate-600">
                    {row.explanation}
                  </span>
                  {category === 'offers' && !offersOn && (
                    <span id="offers-off" className="mt-1 block text-slate-600">
                      Offer notifications are off in{' '}
                      <Link to={paths.settingsAccount.path} className="text-indigo-700 underline">
                        Account
                      </Link>
                      : turn them on there first.
                    </span>
                  )}
                </th>
                {NOTIFICATION_CHANNELS.map((channel) => {
                  const label = `${row.label}: ${channelLabels[channel]}`;
                  if (!(CHANNELS_OF_CATEGORY[category] as readonly string[]).includes(channel))
                    return (
                      <td key={channel} className="py-3 text-center align-top text-slate-400">
                        <span aria-label={`${label}: not available`}>—</span>
                      </td>
                    );
                  const blocked = blockedBy(category, channel);
                  return (
                    <td key={channel} className="py-3 text-center align-top">
                      <input
                        type="checkbox"
                        aria-label={label}
                        aria-describedby={[`${category}-explanation`, blocked]
                          .filter(Boolean)
                          .join(' ')}
                        checked={blocked === null && values[category][channel] === true}
                        disabled={blocked !== null}
                        onChange={() => toggle(category, channel)}
                        className="size-4 rounded border-slate-300 text-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-50"
                      />
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
      <p id="in-app-off" className="text-sm text-slate-600">
        A category whose in-app notifications are off is not e-mailed either.
      </p>
      {values.digest.email === false && (
        <p id="digest-off" className="text-sm text-slate-600">
          The e-mail digest is off: Raly sends you no notification e-mails.
        </p>
      )}
      <div className="flex justify-end">
        <Button type="submit" busy={saving} disabled={Object.keys(changes).length === 0}>
          Save
        </Button>
      </div>
    </form>
  );
}
