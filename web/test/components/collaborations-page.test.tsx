import assert from 'node:assert/strict';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, test } from 'vitest';
import type { CollaborationRecord } from '@raly/contracts/collaborations';
import { messages } from '@raly/contracts/messages';
import type { Me } from '@raly/contracts/bff-api';
import { aBrandRecord, aUserRecord } from '@raly/test-support/records';
import { collaborationsListApi } from '@/lib/collaborations-api';
import { store } from '@/lib/store';
import { CollaborationsNavLink } from '@/components/layout/collaborations-nav';
import { CollaborationsPage } from '@/features/collaborations/components/collaborations-page';
import { aCollaborationRecord } from '../support/collaboration-records';
import { answerBff, jsonAnswer, renderInApp } from './render';

/** Answers GET /api/me with `me` and GET /api/collaborations with `list`. */
function answerWith(me: Me, list: CollaborationRecord[] | null) {
  return answerBff((call) => {
    if (call.path === '/api/me') return jsonAnswer(200, { data: me });
    if (call.path === '/api/collaborations')
      return list
        ? jsonAnswer(200, { data: list })
        : jsonAnswer(503, { error: { code: 'unavailable', message: messages.genericProblem } });
    return jsonAnswer(404, {});
  });
}

/** The status of the cached GET /api/collaborations. */
const listRead = () =>
  collaborationsListApi.endpoints.getCollaborations.select()(store.getState() as never).status;

const rowOf = (title: string) => {
  const link = screen.getByRole('link', { name: title });
  return within(link.closest('li')!);
};

/** A creator and two of their collaborations with one brand: one with messages they have not read. */
function aCreatorWithCollaborations() {
  const creator = aUserRecord();
  const unreadOne = aCollaborationRecord({
    creatorId: creator.id,
    offer: { id: 'offer-1', title: 'Unboxing video' },
    messageCount: 3,
    lastMessageAt: new Date().toISOString(),
    unread: { brand: 0, creator: 2 },
  });
  const quietOne = aCollaborationRecord({
    creatorId: creator.id,
    offer: { id: 'offer-2', title: 'Review thread' },
    status: 'completed',
    unread: { brand: 4, creator: 0 },
  });
  return { me: { user: creator, brand: null }, list: [unreadOne, quietOne] };
}

describe('the collaborations list', () => {
  test("when a creator opens it, then each row names the offer, the brand, the creator's unread count, the work waiting and the status, linking to the conversation", async () => {
    const { me, list } = aCreatorWithCollaborations();
    answerWith(me, list);

    renderInApp(<CollaborationsPage me={me} />);

    await screen.findByRole('list', { name: 'Collaborations' });
    const unread = rowOf('Unboxing video');
    assert.equal(
      screen.getByRole('link', { name: 'Unboxing video' }).getAttribute('href'),
      `/collaborations/${list[0]!.id}`,
    );
    unread.getByText(/With Acme Inc/);
    assert.equal(unread.getByTestId('unread-count').textContent, '2 unread');
    unread.getByText('Active');
    // Its deliverable waits for the creator's work.
    assert.equal(unread.getByTestId('work-waiting').textContent, 'Work waiting for you');
    const quiet = rowOf('Review thread');
    // The brand's unread messages are the brand's: the creator sees no count.
    assert.equal(quiet.queryByTestId('unread-count') === null, true);
    quiet.getByText('Completed');
    assert.equal(quiet.queryByTestId('work-waiting'), null);
  });

  test("when a brand user opens it, then the other side is the creator's username and the count is the brand's", async () => {
    const brand = aBrandRecord();
    const user = aUserRecord({ brand: { id: brand.id, isAdmin: true } });
    const collaboration = aCollaborationRecord({
      brandId: brand.id,
      unread: { brand: 3, creator: 1 },
    });
    const me = { user, brand };
    answerWith(me, [collaboration]);

    renderInApp(<CollaborationsPage me={me} />);

    await screen.findByRole('list', { name: 'Collaborations' });
    const row = rowOf(collaboration.offer.title);
    row.getByText(/With gamerjane/);
    assert.equal(row.getByTestId('unread-count').textContent, '3 unread');
    assert.equal(row.queryByText(/Acme Inc/) === null, true);
  });

  test('when there is none yet, then it says one opens when an application is accepted', async () => {
    const me = { user: aUserRecord(), brand: null };
    answerWith(me, []);

    renderInApp(<CollaborationsPage me={me} />);

    await screen.findByText(/One opens here as soon as an application is accepted/);
  });

  test('when the list cannot be read, then the returned error text shows', async () => {
    const me = { user: aUserRecord(), brand: null };
    answerWith(me, null);

    renderInApp(<CollaborationsPage me={me} />);

    await screen.findByText(messages.genericProblem);
  });
});

describe("the header's Collaborations link", () => {
  test("when the user has unread messages, then its badge counts their side's over every collaboration", async () => {
    const { me, list } = aCreatorWithCollaborations();
    const another = aCollaborationRecord({
      creatorId: me.user.id,
      unread: { brand: 0, creator: 5 },
    });
    answerWith(me, [...list, another]);

    renderInApp(<CollaborationsNavLink className={() => ''} />);

    const badge = await screen.findByTestId('collaborations-badge');
    assert.equal(badge.textContent, '7 unread');
    assert.equal(
      screen.getByRole('link', { name: /^Collaborations/ }).getAttribute('href'),
      '/collaborations',
    );
  });

  test('when nothing is unread, then the link shows without a badge', async () => {
    const me = { user: aUserRecord(), brand: null };
    answerWith(me, [aCollaborationRecord({ creatorId: me.user.id })]);

    renderInApp(<CollaborationsNavLink className={() => ''} />);

    await waitFor(() => assert.equal(listRead(), 'fulfilled'));
    screen.getByRole('link', { name: 'Collaborations' });
    assert.equal(screen.queryByTestId('collaborations-badge') === null, true);
  });
});
