/**
 * /user/:username, the public creator profile: a suspended creator's page
 * shows 'This creator is unavailable.' (the BFF's answer) and nothing of the
 * profile; once the suspension is lifted, opening the page again shows the
 * profile.
 */
import assert from 'node:assert/strict';
import { screen } from '@testing-library/react';
import { describe, test } from 'vitest';
import type { PublicCreatorPage as PublicCreatorAnswer } from '@raly/contracts/collaboration-reviews';
import { messages } from '@raly/contracts/messages';
import { PublicCreatorPage } from '@/features/public-profiles/components/public-creator-page';
import { answerBff, jsonAnswer, renderInApp } from './render';

const username = 'maya';
const aCreatorPage = (): PublicCreatorAnswer => ({
  id: 'creator-1',
  username,
  profileImg: 'https://media.example/maya.png',
  coverImg: 'https://media.example/maya-cover.png',
  interests: ['Gaming'],
  socials: { x: '@maya', instagram: '', threads: '' },
  reviews: { average: 4.5, count: 2 },
  figures: { onTimeShare: 1, deliverablesOnTime: 2, deliverablesWithDueDate: 2 },
});
const unavailable = () =>
  jsonAnswer(404, { error: { code: 'not-found', message: messages.creatorUnavailable } });
const renderPage = () =>
  renderInApp(<PublicCreatorPage username={username} />, { route: `/user/${username}` });

/** Asserts that nothing of the profile shows: name, pictures, interests, socials, track record. */
function assertNoProfileShown() {
  assert.equal(screen.queryByRole('heading', { name: username }), null);
  assert.equal(screen.queryByRole('img'), null);
  assert.equal(screen.queryByText('Interests'), null);
  assert.equal(screen.queryByRole('list', { name: 'Socials' }), null);
  assert.equal(screen.queryByText('@maya'), null);
}

describe('the public page of a suspended creator', () => {
  test('when the BFF answers that the creator is unavailable, then the page says so and shows nothing of the profile', async () => {
    // Arrange
    const calls = answerBff(unavailable);

    // Act
    renderPage();

    // Assert
    await screen.findByText(messages.creatorUnavailable);
    assertNoProfileShown();
    assert.deepEqual(
      calls.map((call) => call.path),
      [`/api/public/users/${username}`],
    );
  });

  test('when the suspension is lifted and the page is opened again, then the profile shows', async () => {
    // Arrange: suspended on the first visit, lifted by the second
    let suspended = true;
    answerBff(() => (suspended ? unavailable() : jsonAnswer(200, { data: aCreatorPage() })));
    const firstVisit = renderPage();
    await screen.findByText(messages.creatorUnavailable);
    firstVisit.unmount();
    suspended = false;

    // Act
    renderPage();

    // Assert
    await screen.findByRole('heading', { name: username });
    assert.ok(screen.getByText('Gaming'));
    assert.ok(screen.getByRole('list', { name: 'Socials' }));
    assert.equal(screen.queryByText(messages.creatorUnavailable), null);
  });
});
