import assert from 'node:assert/strict';
import { screen, within } from '@testing-library/react';
import { describe, test, vi } from 'vitest';
import type { BrandRecord, UserRecord } from '@raly/contracts/records';
import { aBrandRecord, aUserRecord } from '@raly/test-support/records';
import type { SessionState } from '@/lib/session';
import { Header } from '@/components/layout/header';
import { answerBff, jsonAnswer, renderInApp } from './render';

// The session lives in lib/session, outside the component: the test decides it.
const session = vi.hoisted(() => ({ current: { status: 'signed-out' } as SessionState }));
vi.mock('@/lib/use-session', () => ({ useSession: () => session.current }));

const mainLinks = () =>
  within(screen.getByRole('navigation', { name: 'Main' }))
    .getAllByRole('link')
    .map((link) => [link.textContent, link.getAttribute('href')]);

describe('the header', () => {
  test('when signed out, then it links Home, Earn As Creator, Grow As Brand and Login', () => {
    // Arrange
    session.current = { status: 'signed-out' };

    // Act
    renderInApp(<Header />);

    // Assert
    assert.deepEqual(mainLinks(), [
      ['Home', '/'],
      ['Earn As Creator', '/join/creator'],
      ['Grow As Brand', '/join/brand'],
      ['Login', '/login'],
    ]);
  });

  test('when signed in, then it links Home and Dashboard and offers no Login', () => {
    // Arrange
    session.current = { status: 'signed-in', userId: 'user-1' };
    answerBff(() => new Promise<Response>(() => {}));

    // Act
    renderInApp(<Header />);

    // Assert
    assert.deepEqual(mainLinks().slice(0, 2), [
      ['Home', '/'],
      ['Dashboard', '/dashboard'],
    ]);
    assert.equal(screen.queryByRole('link', { name: 'Login' }), null);
  });

  /** The href of the header's Offers link once GET /api/me answered `me` (and no collaborations). */
  async function offersLinkOf(me: { user: UserRecord; brand: BrandRecord | null }) {
    session.current = { status: 'signed-in', userId: me.user.id };
    answerBff((call) => jsonAnswer(200, { data: call.path === '/api/collaborations' ? [] : me }));
    renderInApp(<Header />);
    const nav = within(screen.getByRole('navigation', { name: 'Main' }));
    return (await nav.findByRole('link', { name: /^Offers/ })).getAttribute('href');
  }

  test('when a creator is signed in, then Offers leads to the offers feed', async () => {
    assert.equal(await offersLinkOf({ user: aUserRecord(), brand: null }), '/offers');
  });

  test("when a brand user is signed in, then Offers leads to their brand's offers", async () => {
    const user = aUserRecord({ brand: { id: 'brand-1', isAdmin: true } });
    assert.equal(await offersLinkOf({ user, brand: aBrandRecord() }), '/brand/offers');
  });
});
