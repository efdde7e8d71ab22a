import assert from 'node:assert/strict';
import {
  fireEvent,
  screen,
  waitFor,
  waitForElementToBeRemoved,
  within,
} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, test, vi } from 'vitest';
import type {
  CollaborationMessageRecord,
  CollaborationRecord,
  MessagesPage,
  SendMessage,
} from '@raly/contracts/collaborations';
import { messages } from '@raly/contracts/messages';
import { reportReasonWords, type ReportForm } from '@raly/contracts/reports';
import { aUserRecord } from '@raly/test-support/records';
import { CollaborationPage } from '@/features/collaborations/components/collaboration-page';
import { aCollaborationRecord, aMessageRecord } from '../support/collaboration-records';
import { anOpenReportOf } from '../support/report-records';
import { answerBff, jsonAnswer, renderInApp, type BffCall } from './render';

/**
 * The creator's view of a collaboration whose conversation answers `pages` by `before`;
 * `other` answers any other call (404 unless given).
 */
function arrange({
  collaboration = aCollaborationRecord(),
  pages,
  send = (message: SendMessage) => stored(collaboration, message),
  other = () => jsonAnswer(404, {}),
}: {
  collaboration?: CollaborationRecord;
  pages: Record<string, MessagesPage>;
  send?: (message: SendMessage, call: BffCall) => Promise<Response> | Response;
  other?: (call: BffCall) => Response;
}) {
  const me = { user: aUserRecord({ id: collaboration.creatorId }), brand: null };
  const base = `/api/collaborations/${collaboration.id}`;
  const calls = answerBff((call) => {
    if (call.method === 'GET' && call.path === base)
      return jsonAnswer(200, { data: collaboration });
    if (call.method === 'GET' && call.path === `${base}/messages`) {
      const before = new URLSearchParams(call.search ?? '').get('before') ?? 'newest';
      return jsonAnswer(200, { data: pages[before] });
    }
    if (call.method === 'POST' && call.path === `${base}/messages`)
      return send(call.body as SendMessage, call);
    if (call.method === 'POST' && call.path === `${base}/seen`)
      return jsonAnswer(200, { data: { ...collaboration, version: collaboration.version + 1 } });
    return other(call);
  });
  renderInApp(<CollaborationPage id={collaboration.id} me={me} />);
  return { calls, collaboration, base };
}

/** The server's answer to a message: stored with the next sequence. */
function stored(collaboration: CollaborationRecord, message: SendMessage) {
  const record: CollaborationMessageRecord = {
    ...aMessageRecord(collaboration, collaboration.messageCount + 1, 'creator'),
    clientId: message.clientId,
    body: message.body,
  };
  return jsonAnswer(201, { data: record });
}

const shownBodies = () =>
  within(screen.getByRole('log', { name: 'Messages' }))
    .getAllByRole('listitem')
    .map((item) => item.querySelector('div')?.textContent);

const write = async (text: string) => {
  fireEvent.change(screen.getByLabelText('Message', { exact: true }), { target: { value: text } });
  await userEvent.click(screen.getByRole('button', { name: 'Send' }));
};

describe('a collaboration page', () => {
  test('when it opens, then the messages read oldest first, "Seen" marks the last own message the brand saw, and the conversation is marked seen up to the newest message of the brand', async () => {
    const collaboration = aCollaborationRecord({
      messageCount: 3,
      seenSequence: { brand: 2, creator: 0 },
      unread: { brand: 1, creator: 1 },
    });
    const items = [
      aMessageRecord(collaboration, 3, 'creator'),
      aMessageRecord(collaboration, 2, 'creator'),
      aMessageRecord(collaboration, 1, 'brand'),
    ];
    const { calls, base } = arrange({
      collaboration,
      pages: { newest: { items, nextBefore: null } },
    });

    await screen.findByText('Message number 3');

    assert.deepEqual(shownBodies(), ['Message number 1', 'Message number 2', 'Message number 3']);
    const seen = screen.getAllByTestId('seen-mark');
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.closest('li')?.getAttribute('data-sequence'), '2');
    screen.getByRole('heading', { level: 1, name: collaboration.offer.title });
    screen.getByRole('link', { name: 'Acme Inc' });
    within(screen.getByRole('region', { name: 'Terms' })).getByText('$1,250.00');
    assert.equal(screen.queryByRole('button', { name: 'Load older' }) === null, true);
    await vi.waitFor(() =>
      assert.deepEqual(
        calls.filter((call) => call.path === `${base}/seen`),
        // Up to the brand's newest message: the creator's own need no seen mark.
        [{ method: 'POST', path: `${base}/seen`, body: { sequence: 1 } }],
      ),
    );
  });

  test('when a message is sent, then it shows at once as sending and, once stored, exactly once', async () => {
    let answer: (response: Response) => void = () => {};
    const { calls, collaboration } = arrange({
      pages: { newest: { items: [], nextBefore: null } },
      send: () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    await screen.findByText(/No messages yet/);

    await write('Hello! When do you need the first draft?');
    await screen.findByText('Sending…');
    const sent = calls.find((call) => call.method === 'POST' && call.path.endsWith('/messages'));
    answer(stored(collaboration, sent!.body as SendMessage));
    await waitForElementToBeRemoved(() => screen.queryByText('Sending…'));
    assert.deepEqual(shownBodies(), ['Hello! When do you need the first draft?']);
  });

  test('when a send fails, then the message shows "Not sent" with Retry, and the retry goes with the same client id and shows once', async () => {
    let attempts = 0;
    const { calls, collaboration } = arrange({
      pages: { newest: { items: [], nextBefore: null } },
      send: (message) => {
        attempts += 1;
        return attempts === 1
          ? jsonAnswer(503, { error: { code: 'unavailable', message: messages.genericProblem } })
          : stored(collaboration, message);
      },
    });
    await screen.findByText(/No messages yet/);

    await write('Here is my plan for the video.');
    await screen.findByText(`Not sent: ${messages.genericProblem}`);
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));

    await waitFor(() => assert.equal(screen.queryByText(/Not sent|Sending…/) === null, true));
    assert.deepEqual(shownBodies(), ['Here is my plan for the video.']);
    const sends = calls.filter((call) => call.method === 'POST' && call.path.endsWith('/messages'));
    assert.equal(sends.length, 2);
    assert.equal(
      (sends[1]!.body as SendMessage).clientId,
      (sends[0]!.body as SendMessage).clientId,
    );
  });

  test('when "Load older" is pressed, then the page before the oldest shown is read and shows above', async () => {
    const collaboration = aCollaborationRecord({ messageCount: 4 });
    const [one, two, three, four] = [1, 2, 3, 4].map((sequence) =>
      aMessageRecord(collaboration, sequence, sequence % 2 ? 'brand' : 'creator'),
    );
    const { calls } = arrange({
      collaboration,
      pages: {
        newest: { items: [four!, three!], nextBefore: 3 },
        3: { items: [two!, one!], nextBefore: null },
      },
    });
    await screen.findByText('Message number 4');
    assert.deepEqual(shownBodies(), ['Message number 3', 'Message number 4']);

    await userEvent.click(screen.getByRole('button', { name: 'Load older' }));

    await screen.findByText('Message number 1');
    assert.deepEqual(
      shownBodies(),
      [1, 2, 3, 4].map((sequence) => `Message number ${sequence}`),
    );
    assert.equal(
      calls.some((call) => call.path.endsWith('/messages') && call.search === '?before=3'),
      true,
    );
    assert.equal(screen.queryByRole('button', { name: 'Load older' }) === null, true);
  });

  test('when the collaboration was cancelled, then no composer shows and the reason is said', async () => {
    arrange({
      collaboration: aCollaborationRecord({ status: 'cancelled' }),
      pages: { newest: { items: [], nextBefore: null } },
    });

    await screen.findByText(messages.collaborationCancelled);

    assert.equal(screen.queryByLabelText('Message', { exact: true }) === null, true);
    screen.getByText('Cancelled');
  });

  test('when brand members write, then each of them reads their own as "You" and a teammate\'s by handle, and the creator reads the brand with the member\'s handle', async () => {
    const collaboration = aCollaborationRecord({ messageCount: 4 });
    const byMember = (sequence: number, memberHandle?: string) =>
      aMessageRecord(collaboration, sequence, 'brand', {
        sender: {
          party: 'brand',
          handle: collaboration.brand.username,
          ...(memberHandle && { memberHandle }),
        },
      });
    const items = [
      byMember(4),
      byMember(3, 'kim'),
      byMember(2, 'sam'),
      aMessageRecord(collaboration, 1, 'creator'),
    ];
    answerBff((call) =>
      call.path === `/api/collaborations/${collaboration.id}`
        ? jsonAnswer(200, { data: collaboration })
        : call.path === `/api/collaborations/${collaboration.id}/messages`
          ? jsonAnswer(200, { data: { items, nextBefore: null } })
          : jsonAnswer(200, { data: collaboration }),
    );
    const senders = () =>
      within(screen.getByRole('log', { name: 'Messages' }))
        .getAllByRole('listitem')
        .map((item) => item.querySelector('p > span')?.textContent);
    const member = {
      user: aUserRecord({
        brand: { id: collaboration.brandId, isAdmin: false },
        onboarding: { terms: true, brand: true },
      }),
      brand: null,
    };

    const asSam = renderInApp(
      <CollaborationPage id={collaboration.id} me={member} ownHandle="sam" />,
    );
    await screen.findByText('Message number 4');
    assert.deepEqual(senders(), [collaboration.creator.username, 'You', 'kim', 'You']);
    asSam.unmount();

    const creator = { user: aUserRecord({ id: collaboration.creatorId }), brand: null };
    renderInApp(<CollaborationPage id={collaboration.id} me={creator} />);
    await screen.findByText('Message number 4');
    const brandName = collaboration.brand.username;
    assert.deepEqual(senders(), ['You', `${brandName} · sam`, `${brandName} · kim`, brandName]);
  });

  test('when the creator reports a message of the brand, then only the brand\'s messages have "Report message", which opens "Report this message" and sends the message\'s id with kind message', async () => {
    // Arrange
    const collaboration = aCollaborationRecord({ messageCount: 3 });
    const items = [
      aMessageRecord(collaboration, 3, 'brand'),
      aMessageRecord(collaboration, 2, 'creator'),
      aMessageRecord(collaboration, 1, 'brand'),
    ];
    const { calls } = arrange({
      collaboration,
      pages: { newest: { items, nextBefore: null } },
      other: (call) => {
        if (call.method !== 'POST' || call.path !== '/api/reports') return jsonAnswer(404, {});
        return jsonAnswer(201, {
          data: anOpenReportOf(call.body as ReportForm, 'Message number 3'),
        });
      },
    });
    await screen.findByText('Message number 3');
    const log = screen.getByRole('log', { name: 'Messages' });

    // Act
    const actions = within(log).getAllByRole('button', { name: 'Report message' });
    await userEvent.click(actions[1]!);
    const dialog = screen.getByRole('dialog', { name: 'Report this message' });
    const reason = reportReasonWords['off-platform-contact'].label;
    await userEvent.click(within(dialog).getByRole('radio', { name: reason }));
    await userEvent.type(within(dialog).getByLabelText('Note'), 'Asks for my phone number');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Submit' }));

    // Assert
    assert.deepEqual(
      actions.map((action) => action.closest('li')?.getAttribute('data-sequence')),
      ['1', '3'],
    );
    await waitFor(() => assert.equal((dialog as HTMLDialogElement).open, false));
    assert.deepEqual(
      calls.filter((call) => call.path === '/api/reports'),
      [
        {
          method: 'POST',
          path: '/api/reports',
          body: {
            item: { kind: 'message', id: items[0]!.id },
            reason: 'off-platform-contact',
            note: 'Asks for my phone number',
          },
        },
      ],
    );
  });

  test('when a brand member reads the conversation, then "Report message" is on the creator\'s messages only, never on their own side\'s', async () => {
    // Arrange
    const collaboration = aCollaborationRecord({ messageCount: 3 });
    const items = [
      aMessageRecord(collaboration, 3, 'brand', {
        sender: { party: 'brand', handle: collaboration.brand.username, memberHandle: 'kim' },
      }),
      aMessageRecord(collaboration, 2, 'creator'),
      aMessageRecord(collaboration, 1, 'brand'),
    ];
    answerBff((call) =>
      call.path === `/api/collaborations/${collaboration.id}/messages`
        ? jsonAnswer(200, { data: { items, nextBefore: null } })
        : jsonAnswer(200, { data: collaboration }),
    );
    const member = {
      user: aUserRecord({
        brand: { id: collaboration.brandId, isAdmin: false },
        onboarding: { terms: true, brand: true },
      }),
      brand: null,
    };

    // Act
    renderInApp(<CollaborationPage id={collaboration.id} me={member} ownHandle="sam" />);
    await screen.findByText('Message number 3');

    // Assert
    const log = screen.getByRole('log', { name: 'Messages' });
    assert.deepEqual(
      within(log)
        .getAllByRole('button', { name: 'Report message' })
        .map((action) => action.closest('li')?.getAttribute('data-sequence')),
      ['2'],
    );
  });

  test('when the collaboration is not found, then its message shows', async () => {
    answerBff(() =>
      jsonAnswer(404, { error: { code: 'not-found', message: messages.collaborationNotFound } }),
    );
    renderInApp(<CollaborationPage id="missing" me={{ user: aUserRecord(), brand: null }} />);

    await screen.findByText(messages.collaborationNotFound);
  });
});
