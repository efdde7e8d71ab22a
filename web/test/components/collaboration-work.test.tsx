import assert from 'node:assert/strict';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, test } from 'vitest';
import type { Payment } from '@raly/contracts/collaboration-work';
import type { CollaborationParty } from '@raly/contracts/collaborations';
import { messages } from '@raly/contracts/messages';
import { DeliverablesPanel } from '@/features/collaborations/components/deliverables-panel';
import { endOfDayIso } from '@/lib/offer-format';
import { CancelCollaboration } from '@/features/collaborations/components/cancel-collaboration-dialog';
import { PaymentPanel } from '@/features/collaborations/components/payment-panel';
import { ReviewDeliverableForm } from '@/features/collaborations/components/review-deliverable-form';
import { aCollaborationRecord, aDeliverable } from '../support/collaboration-records';
import { answerBff, jsonAnswer, renderInApp } from './render';

/** Answers every command with the collaboration (version + 1), recording the calls. */
function answerWithRecord() {
  const collaboration = aCollaborationRecord();
  const calls = answerBff(() =>
    jsonAnswer(200, { data: { ...collaboration, version: collaboration.version + 1 } }),
  );
  return { collaboration, calls };
}

const decisionsShown = () =>
  within(screen.getByRole('group', { name: 'Your review' }))
    .getAllByRole('radio')
    .map((radio) => (radio as HTMLInputElement).value);

describe('the deliverables panel', () => {
  const reviewed = aDeliverable({
    title: 'Launch video',
    status: 'changes_requested',
    changeRequests: 2,
    submissions: [1, 2].map((round) => ({
      round,
      link: `https://video.example.org/draft-${round}`,
      note: `Draft ${round}`,
      submittedAt: '2026-11-20T10:00:00Z',
    })),
    reviews: [1, 2].map((round) => ({
      round,
      decision: 'changes_requested' as const,
      comment: `Change number ${round}`,
      automatic: false,
      reviewedAt: '2026-11-21T10:00:00Z',
    })),
  });

  test('when changes were requested, then the round, each submission with its link and note and each review comment show; the creator may hand in again and the brand may neither review nor edit', () => {
    answerBff(() => jsonAnswer(404, {}));
    const collaboration = aCollaborationRecord({ deliverables: [reviewed] });
    const { unmount } = renderInApp(
      <DeliverablesPanel collaboration={collaboration} side="creator" />,
    );

    const item = screen.getByRole('listitem', { name: 'Launch video' });
    within(item).getByText(/Changes requested, round 2 of 3/);
    within(item).getByRole('link', { name: 'https://video.example.org/draft-2' });
    within(item).getByText('Draft 1');
    within(item).getByText('Change number 2');
    screen.getByRole('form', { name: 'Hand in Launch video' });
    unmount();

    renderInApp(<DeliverablesPanel collaboration={collaboration} side="brand" />);
    assert.equal(screen.queryByRole('form'), null);
    assert.equal(screen.queryByRole('button', { name: 'Edit deliverables' }), null);
  });

  test('when nothing was handed in yet, then only the brand may edit the deliverables; an automatic approval says so', async () => {
    answerBff(() => jsonAnswer(404, {}));
    const collaboration = aCollaborationRecord();
    const { unmount } = renderInApp(
      <DeliverablesPanel collaboration={collaboration} side="creator" />,
    );
    assert.equal(screen.queryByRole('button', { name: 'Edit deliverables' }), null);
    unmount();

    const brandView = renderInApp(<DeliverablesPanel collaboration={collaboration} side="brand" />);
    await userEvent.click(screen.getByRole('button', { name: 'Edit deliverables' }));
    screen.getByRole('form', { name: 'Edit deliverables' });
    brandView.unmount();

    const approved = aCollaborationRecord({
      deliverables: [
        {
          ...reviewed,
          status: 'approved',
          changeRequests: 0,
          submissions: reviewed.submissions.slice(0, 1),
          reviews: [
            { ...reviewed.reviews[0]!, decision: 'approved', comment: '', automatic: true },
          ],
        },
      ],
    });
    renderInApp(<DeliverablesPanel collaboration={approved} side="brand" />);
    screen.getByText(/Approved automatically/);
  });
});

describe('the edit of the deliverables', () => {
  test('when a title is left empty, then "Title is required" shows; once filled, the whole list goes with each date as the end of its day', async () => {
    const { collaboration, calls } = answerWithRecord();
    renderInApp(<DeliverablesPanel collaboration={collaboration} side="brand" />);
    await userEvent.click(screen.getByRole('button', { name: 'Edit deliverables' }));

    await userEvent.click(screen.getByRole('button', { name: 'Add deliverable' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save deliverables' }));
    await screen.findByText(messages.deliverableTitleRequired);
    assert.equal(calls.length, 0);

    await userEvent.type(screen.getByLabelText('Deliverable 2'), 'A story on launch day');
    fireEvent.change(screen.getAllByLabelText('Due (optional)')[1]!, {
      target: { value: '2027-03-01' },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Save deliverables' }));

    await waitFor(() => assert.equal(calls.length, 1));
    assert.deepEqual(calls[0], {
      method: 'PUT',
      path: `/api/collaborations/${collaboration.id}/deliverables`,
      body: {
        items: [
          { title: collaboration.deliverables[0]!.title, dueAt: null },
          { title: 'A story on launch day', dueAt: endOfDayIso('2027-03-01') },
        ],
      },
    });
  });
});

describe('the review form', () => {
  test('when rounds of changes remain, then approve and request changes are offered, and asking changes without a comment says what is missing and sends nothing', async () => {
    const { collaboration, calls } = answerWithRecord();
    const deliverable = aDeliverable({ status: 'submitted', changeRequests: 2 });
    renderInApp(
      <ReviewDeliverableForm collaborationId={collaboration.id} deliverable={deliverable} />,
    );

    assert.deepEqual(decisionsShown(), ['approve', 'request_changes']);
    await userEvent.click(screen.getByRole('radio', { name: 'Request changes' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send review' }));

    await screen.findByText(messages.reviewCommentRequired);
    assert.equal(calls.length, 0);

    await userEvent.type(screen.getByLabelText('Comment'), 'Show the logo in the first seconds.');
    await userEvent.click(screen.getByRole('button', { name: 'Send review' }));
    await waitFor(() => assert.equal(calls.length, 1));
    assert.deepEqual(calls[0], {
      method: 'POST',
      path: `/api/collaborations/${collaboration.id}/deliverables/${deliverable.id}/review`,
      body: { decision: 'request_changes', comment: 'Show the logo in the first seconds.' },
    });
  });

  test('when every round of changes is used, then only approve and a dispute are offered, and approving needs no comment', async () => {
    const { collaboration, calls } = answerWithRecord();
    const deliverable = aDeliverable({ status: 'submitted', changeRequests: 3 });
    renderInApp(
      <ReviewDeliverableForm collaborationId={collaboration.id} deliverable={deliverable} />,
    );

    assert.deepEqual(decisionsShown(), ['approve', 'dispute']);
    assert.equal(screen.queryByRole('radio', { name: 'Request changes' }), null);
    await userEvent.click(screen.getByRole('button', { name: 'Send review' }));

    await waitFor(() => assert.equal(calls.length, 1));
    assert.deepEqual(calls[0]!.body, { decision: 'approve', comment: '' });
  });
});

/** A collaboration whose payment is `payment`, all deliverables approved unless not due. */
const withPayment = (payment: Partial<Payment>) => {
  const base = aCollaborationRecord();
  return { ...base, payment: { ...base.payment, ...payment } };
};

describe('the payment panel', () => {
  const cases: {
    side: CollaborationParty;
    payment: Partial<Payment>;
    action: string | null;
  }[] = [
    { side: 'brand', payment: { status: 'not_due' }, action: null },
    { side: 'brand', payment: { status: 'due' }, action: 'Mark as paid' },
    { side: 'creator', payment: { status: 'due' }, action: null },
    { side: 'brand', payment: { status: 'paid' }, action: null },
    { side: 'creator', payment: { status: 'paid' }, action: 'Confirm receipt' },
    { side: 'creator', payment: { status: 'confirmed' }, action: null },
  ];
  for (const { side, payment, action } of cases)
    test(`when the payment is ${payment.status} and the ${side} looks, then ${action ? `only "${action}" is offered` : 'no action is offered'}, with the amount and the notice that Raly does not move money`, () => {
      answerBff(() => jsonAnswer(404, {}));
      renderInApp(<PaymentPanel collaboration={withPayment(payment)} side={side} />);

      const offered = ['Mark as paid', 'Confirm receipt'].filter(
        (name) => screen.queryByRole('button', { name }) !== null,
      );
      assert.deepEqual(offered, action ? [action] : []);
      screen.getByText('$1,250.00');
      screen.getByText(messages.paymentRecordedOnly);
      assert.equal(
        screen.getByTestId('payment-status').getAttribute('data-status'),
        payment.status,
      );
    });

  test('when the payment is overdue, then both sides see the warning', () => {
    answerBff(() => jsonAnswer(404, {}));
    for (const side of ['brand', 'creator'] as const) {
      const { unmount } = renderInApp(
        <PaymentPanel
          collaboration={withPayment({
            status: 'due',
            overdue: true,
            dueAt: '2026-01-02T10:00:00Z',
          })}
          side={side}
        />,
      );
      assert.match(screen.getByRole('alert').textContent ?? '', /^Overdue/);
      unmount();
    }
  });

  test('when the brand marks it paid with a reference, then the reference is sent', async () => {
    const { calls } = answerWithRecord();
    const collaboration = withPayment({ status: 'due' });
    renderInApp(<PaymentPanel collaboration={collaboration} side="brand" />);

    await userEvent.type(screen.getByLabelText('Reference (optional)'), 'Transfer 2026-118');
    await userEvent.click(screen.getByRole('button', { name: 'Mark as paid' }));

    await waitFor(() => assert.equal(calls.length, 1));
    assert.deepEqual(calls[0], {
      method: 'POST',
      path: `/api/collaborations/${collaboration.id}/payment/paid`,
      body: { reference: 'Transfer 2026-118' },
    });
  });
});

describe('the cancel dialog', () => {
  test('when the brand cancels before the first submission, then no reason is needed', async () => {
    const { collaboration, calls } = answerWithRecord();
    renderInApp(<CancelCollaboration collaborationId={collaboration.id} reasonRequired={false} />);

    await userEvent.click(screen.getByRole('button', { name: 'Cancel collaboration' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel this collaboration?' });
    within(dialog).getByLabelText('Reason (optional)');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel collaboration' }));

    await waitFor(() => assert.equal(calls.length, 1));
    assert.deepEqual(calls[0], {
      method: 'POST',
      path: `/api/collaborations/${collaboration.id}/cancel`,
      body: { reason: '' },
    });
  });

  test('when a reason is owed and missing, then "Give a reason for cancelling" shows and nothing is sent; with one, it is sent', async () => {
    const { collaboration, calls } = answerWithRecord();
    renderInApp(<CancelCollaboration collaborationId={collaboration.id} reasonRequired />);

    await userEvent.click(screen.getByRole('button', { name: 'Cancel collaboration' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel this collaboration?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel collaboration' }));

    await within(dialog).findByText(messages.cancelReasonRequired);
    assert.equal(calls.length, 0);
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'The launch moved to next year.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel collaboration' }));
    await waitFor(() => assert.equal(calls.length, 1));
    assert.deepEqual(calls[0]!.body, { reason: 'The launch moved to next year.' });
  });

  test('when the service refuses the reason, then its message shows under the field', async () => {
    const collaboration = aCollaborationRecord();
    answerBff(() =>
      jsonAnswer(400, {
        error: {
          code: 'invalid-argument',
          message: messages.cancelReasonRequired,
          fields: { reason: messages.cancelReasonRequired },
        },
      }),
    );
    renderInApp(<CancelCollaboration collaborationId={collaboration.id} reasonRequired={false} />);

    await userEvent.click(screen.getByRole('button', { name: 'Cancel collaboration' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel this collaboration?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel collaboration' }));

    const shown = await within(dialog).findByText(messages.cancelReasonRequired);
    assert.equal(shown.getAttribute('role'), 'alert');
  });
});
