import assert from 'node:assert/strict';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, test, vi } from 'vitest';
import {
  emptyCollaborationsSummary,
  type CollaborationsSummary as Summary,
} from '@raly/contracts/collaboration-summary';
import { liveEvents } from '@raly/contracts/live';
import { CollaborationsSummary } from '@/features/dashboard/components/collaborations-summary';
import { aCollaborationRecord } from '../support/collaboration-records';
import { answerBff, jsonAnswer, renderInApp } from './render';

// The live socket and the session live outside the component: the test plays both.
const live = vi.hoisted(() => {
  const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
  const socket = {
    connected: true,
    on(event: string, listener: (...args: unknown[]) => void) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(listener);
      return socket;
    },
    off(event: string, listener: (...args: unknown[]) => void) {
      listeners.get(event)?.delete(listener);
      return socket;
    },
  };
  /** Delivers a push to every listener of `event`. */
  const push = (event: string, payload: unknown) => {
    for (const listener of listeners.get(event) ?? []) listener(payload);
  };
  return { socket, push, listeners };
});
vi.mock('@/lib/live-socket', () => ({ liveSocket: () => live.socket }));
vi.mock('@/lib/session', async (original) => ({
  ...(await original<typeof import('@/lib/session')>()),
  getSessionSnapshot: () => ({ status: 'signed-in', userId: 'user-1' }),
}));

afterEach(() => live.listeners.clear());

/** Answers GET /api/collaborations/summary with each of `answers` in turn (the last one after). */
function answerSummaries(...answers: Summary[]) {
  let next = 0;
  return answerBff((call) => {
    if (call.path !== '/api/collaborations/summary') return jsonAnswer(404, {});
    const summary = answers[Math.min(next, answers.length - 1)];
    next += 1;
    return jsonAnswer(200, { data: summary });
  });
}

const figure = (key: keyof Summary) => screen.getByTestId(`collaborations-${key}`).textContent;

describe("the dashboard's collaborations summary", () => {
  test("when a brand's summary arrives, then each figure shows under the brand's words and leads to the collaborations", async () => {
    answerSummaries({
      active: 3,
      waitingForYou: 2,
      paymentDue: 1,
      paymentOverdue: 1,
      completed: 4,
      cancelled: 1,
      unreadMessages: 5,
    });

    renderInApp(<CollaborationsSummary brandUser />);

    await waitFor(() => assert.equal(figure('active'), '3'));
    const section = within(screen.getByRole('region', { name: 'Your collaborations' }));
    assert.equal(figure('waitingForYou'), '2');
    assert.equal(figure('paymentDue'), '1');
    assert.equal(figure('paymentOverdue'), '1');
    assert.equal(figure('completed'), '4');
    assert.equal(figure('unreadMessages'), '5');
    section.getByRole('link', { name: 'Submissions to review' });
    for (const link of section.getAllByRole('link'))
      assert.equal(link.getAttribute('href'), '/collaborations');
  });

  test("when a creator's summary shows, then what waits for them is the changes requested", async () => {
    answerSummaries({ ...emptyCollaborationsSummary, waitingForYou: 1 });

    renderInApp(<CollaborationsSummary brandUser={false} />);

    await waitFor(() => assert.equal(figure('waitingForYou'), '1'));
    screen.getByRole('link', { name: 'Changes requested' });
    assert.equal(screen.queryByRole('link', { name: 'Submissions to review' }), null);
  });

  test('when a collaboration or a message push arrives, then the summary is read again and shows the new counts', async () => {
    const calls = answerSummaries(
      { ...emptyCollaborationsSummary, active: 1 },
      { ...emptyCollaborationsSummary, active: 1, waitingForYou: 1 },
      { ...emptyCollaborationsSummary, active: 1, waitingForYou: 1, unreadMessages: 2 },
    );
    renderInApp(<CollaborationsSummary brandUser />);
    await waitFor(() => assert.equal(figure('active'), '1'));
    await waitFor(() => assert.ok(live.listeners.get(liveEvents.collaboration)?.size));

    live.push(liveEvents.collaboration, aCollaborationRecord());
    await waitFor(() => assert.equal(figure('waitingForYou'), '1'));
    live.push(liveEvents.message, { collaborationId: 'c-1' });
    await waitFor(() => assert.equal(figure('unreadMessages'), '2'));

    assert.equal(calls.filter((call) => call.path === '/api/collaborations/summary').length, 3);
  });
});
