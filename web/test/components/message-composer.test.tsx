import assert from 'node:assert/strict';
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, test, vi } from 'vitest';
import { messages } from '@raly/contracts/messages';
import { MessageComposer } from '@/features/collaborations/components/message-composer';
import type { Draft, SendOutcome } from '@/features/collaborations/hooks/use-outbox';
import { renderInApp } from './render';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const type = (value: string) =>
  fireEvent.change(screen.getByLabelText('Message', { exact: true }), { target: { value } });
const send = () => userEvent.click(screen.getByRole('button', { name: 'Send' }));
const messageField = () => screen.getByLabelText<HTMLTextAreaElement>('Message', { exact: true });

/** Renders the composer; its sends resolve with `outcome`. */
function renderComposer(outcome: SendOutcome = 'sent') {
  const onSend = vi.fn<(draft: Draft) => Promise<SendOutcome>>(async () => outcome);
  renderInApp(<MessageComposer onSend={onSend} />);
  return onSend;
}

describe('the message composer', () => {
  test('when an empty message is sent, then "Message is required" shows and nothing is sent', async () => {
    const onSend = renderComposer();

    type('   ');
    await send();

    await screen.findByText(messages.messageRequired);
    assert.equal(onSend.mock.calls.length, 0);
  });

  test('when the message is over 2000 characters, then its length rule shows and nothing is sent', async () => {
    const onSend = renderComposer();

    type('a'.repeat(2001));
    await send();

    await screen.findByText(messages.messageTooLong);
    assert.equal(onSend.mock.calls.length, 0);
    screen.getByText('2001/2000');
  });

  test('when a message is sent, then it goes with a new client id, trimmed, and the field empties', async () => {
    const onSend = renderComposer();

    type('  Hello, when can you start?  ');
    await send();

    await vi.waitFor(() => assert.equal(onSend.mock.calls.length, 1));
    const [draft] = onSend.mock.calls[0]!;
    assert.match(draft.clientId, UUID);
    assert.deepEqual(
      { body: draft.body, confirmContactDetails: draft.confirmContactDetails },
      { body: 'Hello, when can you start?', confirmContactDetails: false },
    );
    assert.equal(messageField().value, '');
  });

  test('when Enter is pressed, then the message is sent; Shift+Enter only starts a new line', async () => {
    const onSend = renderComposer();
    await userEvent.click(messageField());

    await userEvent.keyboard('First line{Shift>}{Enter}{/Shift}second line');
    assert.equal(onSend.mock.calls.length, 0);
    await userEvent.keyboard('{Enter}');

    await vi.waitFor(() => assert.equal(onSend.mock.calls.length, 1));
    assert.equal(onSend.mock.calls[0]![0].body, 'First line\nsecond line');
  });

  test('when the message holds an e-mail address, then the contact-details notice asks first and "Send anyway" sends it confirmed', async () => {
    const onSend = renderComposer();

    type('Write to me at jane@example.com');
    await send();

    const notice = await screen.findByRole('alert');
    assert.equal(notice.textContent?.includes(messages.contactDetailsNotice), true);
    assert.equal(onSend.mock.calls.length, 0);
    await userEvent.click(screen.getByRole('button', { name: 'Send anyway' }));
    await vi.waitFor(() => assert.equal(onSend.mock.calls.length, 1));
    assert.deepEqual(
      { ...onSend.mock.calls[0]![0], clientId: 'any' },
      { clientId: 'any', body: 'Write to me at jane@example.com', confirmContactDetails: true },
    );
    assert.equal(screen.queryByText(messages.contactDetailsNotice) === null, true);
  });

  test('when the author chooses "Edit message", then the notice goes, the text stays and nothing is sent', async () => {
    const onSend = renderComposer();
    type('Call me on +44 20 7946 0958');
    await send();
    await screen.findByText(messages.contactDetailsNotice);

    await userEvent.click(screen.getByRole('button', { name: 'Edit message' }));

    assert.equal(screen.queryByText(messages.contactDetailsNotice) === null, true);
    assert.equal(messageField().value, 'Call me on +44 20 7946 0958');
    assert.equal(document.activeElement, messageField());
    assert.equal(onSend.mock.calls.length, 0);
  });

  test('when the server asks to confirm contact details, then the text comes back with the notice and the confirmed send keeps its client id', async () => {
    const onSend = renderComposer('contact-details');
    // Written out so that the browser's check passes it and only the server's refuses.
    type('My handle is fine');
    await send();
    await screen.findByText(messages.contactDetailsNotice);
    assert.equal(messageField().value, 'My handle is fine');

    await userEvent.click(screen.getByRole('button', { name: 'Send anyway' }));

    await vi.waitFor(() => assert.equal(onSend.mock.calls.length, 2));
    const [first, second] = onSend.mock.calls.map(([draft]) => draft);
    assert.equal(second!.clientId, first!.clientId);
    assert.deepEqual([first!.confirmContactDetails, second!.confirmContactDetails], [false, true]);
  });
});
