/**
 * What the account form (spec §2, §5) sends: only the fields that differ
 * from the user's record, and only the fields of the user's kind — a creator
 * edits username, e-mail, phone, interests and both notifications; a brand
 * user edits first and last name, e-mail, phone and marketing notifications.
 */
import type { Interest } from '@raly/contracts/constants';
import type { UserRecord } from '@raly/contracts/records';
import type { MeUpdate } from '@raly/contracts/bff-api';

/** Every field the form can show; which ones apply depends on the user's kind. */
export interface AccountValues {
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  interests: Interest[];
  notifications: { offers: boolean; marketing: boolean };
}

/** @returns the form's values for `user` (missing username → '') */
export function accountValuesOf(user: UserRecord): AccountValues {
  return {
    username: user.username ?? '',
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    phoneNumber: user.phoneNumber,
    interests: [...user.interests],
    notifications: { ...user.notifications },
  };
}

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const sameInterests = (a: readonly Interest[], b: readonly Interest[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

/**
 * @param user the record the form was filled from
 * @param values what the form holds after validation
 * @param brandUser whether the user is a brand user (spec §4: the record holds a brand id)
 * @returns the PATCH /api/me body: the changed fields only (empty when nothing changed)
 */
export function accountChanges(
  user: UserRecord,
  values: AccountValues,
  brandUser: boolean,
): MeUpdate {
  const changes: MeUpdate = {};
  if (!sameEmail(values.email, user.email)) changes.email = values.email.trim();
  if (values.phoneNumber.trim() !== user.phoneNumber)
    changes.phoneNumber = values.phoneNumber.trim();
  if (brandUser) {
    if (values.firstName.trim() !== user.firstName) changes.firstName = values.firstName.trim();
    if (values.lastName.trim() !== user.lastName) changes.lastName = values.lastName.trim();
    if (values.notifications.marketing !== user.notifications.marketing) {
      // A brand user has no offer notifications: the brand schema accepts marketing only.
      changes.notifications = { marketing: values.notifications.marketing };
    }
    return changes;
  }
  if (values.username !== (user.username ?? '')) changes.username = values.username;
  if (!sameInterests(values.interests, user.interests)) changes.interests = values.interests;
  if (
    values.notifications.offers !== user.notifications.offers ||
    values.notifications.marketing !== user.notifications.marketing
  ) {
    changes.notifications = {
      offers: values.notifications.offers,
      marketing: values.notifications.marketing,
    };
  }
  return changes;
}
