/**
 * What a notification says and where it leads: the offer for a creator,
 * the brand's offer with its applicants for an application received or
 * withdrawn, the collaboration for anything about one, Settings → Reports
 * for the outcome of one's report; never a name beyond the public
 * counterpart it carries.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { NOTIFICATION_KINDS, type Notification } from '@raly/contracts/notifications';
import { reportOutcomeWords } from '@raly/contracts/reports';
import {
  notificationDetail,
  notificationLink,
  notificationText,
} from '@/features/notifications/utils/notification-text';

const anItem = (overrides: Partial<Notification> = {}): Notification => ({
  id: 'item-1',
  kind: 'application_received',
  offerId: 'offer-1',
  applicationId: 'application-1',
  collaborationId: null,
  title: 'Launch video',
  counterpart: 'gamerjane',
  report: null,
  read: false,
  created: new Date().toISOString(),
  ...overrides,
});

describe('a notification', () => {
  test('when an application is received or withdrawn, then it leads to the brand offer with its applicants', () => {
    for (const kind of ['application_received', 'application_withdrawn'] as const)
      assert.equal(notificationLink(anItem({ kind })), '/brand/offers/offer-1');
  });

  test('when it is about an offer for a creator, then it leads to the offer; about a collaboration, to the collaboration', () => {
    assert.equal(notificationLink(anItem({ kind: 'offer_matched' })), '/offers/offer-1');
    assert.equal(notificationLink(anItem({ kind: 'application_declined' })), '/offers/offer-1');
    assert.equal(
      notificationLink(anItem({ kind: 'payment_marked', collaborationId: 'c-1' })),
      '/collaborations/c-1',
    );
    assert.equal(notificationLink(anItem({ offerId: null })), null);
  });

  test('when any kind is told, then the sentence names the offer and, where there is one, the counterpart', () => {
    for (const kind of NOTIFICATION_KINDS) {
      const text = notificationText(anItem({ kind }));
      assert.ok(text.includes('“Launch video”'), `${kind}: ${text}`);
    }
    assert.equal(
      notificationText(anItem({ kind: 'application_accepted', counterpart: 'Acme' })),
      'Acme accepted your application to “Launch video”',
    );
  });

  test("when a report was resolved, then it names what was reported (a message by its kind), adds the outcome's words and leads to Settings → Reports", () => {
    const resolved = anItem({
      kind: 'report_resolved',
      offerId: null,
      applicationId: null,
      counterpart: null,
      report: { itemKind: 'offer', outcome: 'warning' },
    });
    assert.equal(notificationText(resolved), 'Your report of “Launch video” was reviewed');
    assert.equal(notificationDetail(resolved), reportOutcomeWords.warning);
    assert.equal(notificationLink(resolved), '/settings/reports');
    const message = {
      ...resolved,
      title: '',
      report: { itemKind: 'message', outcome: 'no-action' },
    };
    assert.equal(
      notificationText(message as typeof resolved),
      'Your report of a message was reviewed',
    );
    assert.equal(notificationDetail(anItem({ kind: 'offer_matched' })), null);
  });
});
