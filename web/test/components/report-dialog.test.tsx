/**
 * The "Report" button and its dialog (docs/console.md "Reports in the browser"): the form's rules
 * in the browser with the contracts' words, the BFF's 201 closing the dialog with the thank-you
 * toast, a 409 shown in the dialog, and the button only for signed-in people on what is not theirs.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, test, vi } from 'vitest';
import type { PublicCreatorPage as PublicCreatorAnswer } from '@raly/contracts/collaboration-reviews';
import type { Me } from '@raly/contracts/bff-api';
import { messages } from '@raly/contracts/messages';
import type { OfferRecord } from '@raly/contracts/offers';
import { reportReasons, reportReasonWords, type ReportForm } from '@raly/contracts/reports';
import { aBrandRecord, aUserRecord } from '@raly/test-support/records';
import type { SessionState } from '@/lib/session';
import { ReportDialog } from '@/components/reports/report-dialog';
import { Toaster } from '@/components/ui/toaster';
import { OfferDetailPage } from '@/features/offers/components/offer-detail-page';
import { PublicCreatorPage } from '@/features/public-profiles/components/public-creator-page';
import { anOfferRecord } from '../support/offer-records';
import { anOpenReportOf } from '../support/report-records';
import { answerBff, jsonAnswer, renderInApp, type BffCall } from './render';

// The session lives in lib/session, outside the component: the test decides it.
const session = vi.hoisted(() => ({ current: { status: 'signed-out' } as SessionState }));
vi.mock('@/lib/use-session', () => ({ useSession: () => session.current }));

const anOffer = () => ({ kind: 'offer' as const, id: randomUUID() });

/** Renders the dialog open on `item`, with the app's toaster; @returns its close callback */
function openDialog(item = anOffer()) {
  const onClose = vi.fn();
  renderInApp(
    <>
      <Toaster />
      <ReportDialog open onClose={onClose} item={item} />
    </>,
  );
  return onClose;
}

/** The message under the note (its own, not the words of the reason "Something else"). */
const noteMessage = () => {
  const note = screen.getByLabelText('Note');
  return document.getElementById(`${note.id}-message`)?.textContent;
};

const reportCalls = (calls: BffCall[]) => calls.filter((call) => call.path === '/api/reports');

describe('the report dialog', () => {
  test('when it opens on an offer, then it reads "Report this offer" and offers every reason with its words, and a note counted against 1000', () => {
    openDialog();

    const dialog = screen.getByRole('dialog', { name: 'Report this offer' });
    const reasons = within(within(dialog).getByRole('group', { name: 'Reason' })).getAllByRole(
      'radio',
    );
    assert.equal(reasons.length, reportReasons.length);
    for (const reason of reportReasons) {
      const radio = within(dialog).getByRole('radio', { name: reportReasonWords[reason].label });
      const description = document.getElementById(radio.getAttribute('aria-describedby') ?? '');
      assert.equal(description?.textContent, reportReasonWords[reason].description);
    }
    assert.ok(within(dialog).getByText('0/1000'));
  });

  test("when it is sent without a reason, with 'Something else' and no note, or with a note over 1000 characters, then the form's message shows and nothing is sent", async () => {
    // Arrange
    const calls = answerBff(() => jsonAnswer(500, {}));
    openDialog();
    const submit = screen.getByRole('button', { name: 'Submit' });

    // Act / Assert: no reason
    await userEvent.click(submit);
    await screen.findByText(messages.reportReasonRequired);

    // Act / Assert: "something else" needs a note
    await userEvent.click(screen.getByRole('radio', { name: reportReasonWords.other.label }));
    await userEvent.click(submit);
    await waitFor(() => assert.equal(noteMessage(), messages.reportNoteRequired));

    // Act / Assert: a note over the limit
    await userEvent.click(screen.getByLabelText('Note'));
    await userEvent.paste('x'.repeat(1001));
    await userEvent.click(submit);
    await waitFor(() => assert.equal(noteMessage(), messages.reportNoteTooLong));
    assert.ok(screen.getByText('1001/1000'));
    assert.deepEqual(reportCalls(calls), []);
  });

  test("when the BFF answers 201, then the reason and note are sent for the item, the dialog asks to close and the toast says 'Thanks, our team will review your report.'", async () => {
    // Arrange
    const item = anOffer();
    const calls = answerBff((call) =>
      jsonAnswer(201, { data: anOpenReportOf(call.body as ReportForm, 'Summer drinks') }),
    );
    const onClose = openDialog(item);

    // Act
    await userEvent.click(screen.getByRole('radio', { name: reportReasonWords.spam.label }));
    await userEvent.type(screen.getByLabelText('Note'), '  Same offer posted ten times  ');
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));

    // Assert
    await screen.findByText(messages.reportThanks);
    assert.deepEqual(reportCalls(calls), [
      {
        method: 'POST',
        path: '/api/reports',
        body: { item, reason: 'spam', note: 'Same offer posted ten times' },
      },
    ]);
    assert.equal(onClose.mock.calls.length, 1);
  });

  test("when the BFF answers 409, then 'You have already reported this.' shows in the dialog, which stays open without a toast", async () => {
    // Arrange
    answerBff(() =>
      jsonAnswer(409, { error: { code: 'conflict', message: messages.alreadyReported } }),
    );
    const onClose = openDialog();

    // Act
    await userEvent.click(screen.getByRole('radio', { name: reportReasonWords.harassment.label }));
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));

    // Assert
    const dialog = screen.getByRole('dialog', { name: 'Report this offer' });
    assert.equal((await within(dialog).findByRole('alert')).textContent, messages.alreadyReported);
    assert.equal(onClose.mock.calls.length, 0);
    assert.equal(screen.queryByText(messages.reportThanks), null);
  });

  test('when the BFF refuses the note with a field message, then the message shows under the note', async () => {
    answerBff(() =>
      jsonAnswer(400, {
        error: {
          code: 'validation',
          message: messages.reportNoteRequired,
          fields: { note: messages.reportNoteRequired },
        },
      }),
    );
    openDialog();

    await userEvent.click(screen.getByRole('radio', { name: reportReasonWords.spam.label }));
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }));

    await waitFor(() => assert.equal(noteMessage(), messages.reportNoteRequired));
    assert.equal(screen.getByLabelText('Note').getAttribute('aria-invalid'), 'true');
  });
});

describe('the Report button of a public creator page', () => {
  const creator: PublicCreatorAnswer = {
    id: randomUUID(),
    username: 'maya',
    profileImg: '',
    coverImg: '',
    interests: ['Gaming'],
    socials: { x: '', instagram: '', threads: '' },
    reviews: { average: null, count: 0 },
    figures: { onTimeShare: null, deliverablesOnTime: 0, deliverablesWithDueDate: 0 },
  };

  /** Renders maya's page for a visitor whose GET /api/me answers `userId`. */
  async function renderPageFor(userId: string) {
    answerBff((call) =>
      call.path === '/api/me'
        ? jsonAnswer(200, { data: { user: aUserRecord({ id: userId }), brand: null } })
        : jsonAnswer(200, { data: creator }),
    );
    const page = renderInApp(<PublicCreatorPage username={creator.username} />, {
      route: '/user/maya',
    });
    await screen.findByRole('heading', { name: creator.username });
    return page;
  }

  test('when another signed-in person views the page, then "Report" opens "Report this profile"', async () => {
    session.current = { status: 'signed-in', userId: 'someone-else' };
    await renderPageFor('someone-else');

    await userEvent.click(await screen.findByRole('button', { name: 'Report' }));

    assert.ok(screen.getByRole('dialog', { name: 'Report this profile' }));
  });

  test('when the creator views their own page, or nobody is signed in, then there is no "Report"', async () => {
    session.current = { status: 'signed-in', userId: creator.id };
    const ownPage = await renderPageFor(creator.id);
    // The button would show once GET /api/me answered: give it the time it takes another person.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(screen.queryByRole('button', { name: 'Report' }), null);
    ownPage.unmount();

    session.current = { status: 'signed-out' };
    await renderPageFor('nobody');
    assert.equal(screen.queryByRole('button', { name: 'Report' }), null);
  });
});

describe('the Report button of an offer page', () => {
  /** Renders an offer's page for the signed-in person `meOf(offer)` (their GET /api/me). */
  async function renderOfferFor(meOf: (offer: OfferRecord) => Me) {
    const offer = anOfferRecord();
    const me = meOf(offer);
    session.current = { status: 'signed-in', userId: me.user.id };
    answerBff((call) =>
      jsonAnswer(200, {
        data:
          call.path === '/api/me'
            ? me
            : {
                offer,
                brand: { ...offer.brand, websiteUrl: '', coverImg: '', bio: '', socials: {} },
                myApplication: null,
              },
      }),
    );
    renderInApp(<OfferDetailPage id={offer.id} />, { route: `/offers/${offer.id}` });
    await screen.findByRole('heading', { level: 1, name: offer.title });
  }

  test('when a creator views an offer, then "Report" opens "Report this offer"', async () => {
    await renderOfferFor(() => ({ user: aUserRecord(), brand: null }));

    await userEvent.click(await screen.findByRole('button', { name: 'Report' }));

    assert.ok(screen.getByRole('dialog', { name: 'Report this offer' }));
  });

  test('when a member of the offer\'s brand views it, then there is no "Report"', async () => {
    await renderOfferFor((offer) => ({
      user: aUserRecord({ brand: { id: offer.brandId, isAdmin: true } }),
      brand: aBrandRecord({ id: offer.brandId }),
    }));
    // The button would show once GET /api/me answered: give it the time it takes a creator.
    await new Promise((resolve) => setTimeout(resolve, 100));

    assert.equal(screen.queryByRole('button', { name: 'Report' }), null);
  });
});
