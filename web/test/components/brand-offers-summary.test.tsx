import assert from 'node:assert/strict';
import { screen } from '@testing-library/react';
import { describe, test } from 'vitest';
import type { BrandOffersSummary as Figures } from '@raly/contracts/bff-api';
import { BrandOffersSummary } from '@/features/dashboard/components/brand-offers-summary';
import { answerBff, jsonAnswer, renderInApp } from './render';

describe("the brand dashboard's figures", () => {
  test('when the figures arrive, then each shows its count and links to the offers list filtered to it', async () => {
    // Arrange
    const figures: Figures = { offers: { open: 3, draft: 1, closed: 2 }, pendingApplications: 5 };
    const calls = answerBff(() => jsonAnswer(200, { data: figures }));

    // Act
    renderInApp(<BrandOffersSummary />, { route: '/dashboard' });

    // Assert
    await screen.findByText('5');
    const shown = Object.fromEntries(
      ['open-offers', 'draft-offers', 'closed-offers', 'pending-applications'].map((id) => {
        const figure = screen.getByTestId(id);
        return [id, [figure.textContent, figure.closest('a')?.getAttribute('href')]];
      }),
    );
    assert.deepEqual(shown, {
      'open-offers': ['3', '/brand/offers?status=open'],
      'draft-offers': ['1', '/brand/offers?status=draft'],
      'closed-offers': ['2', '/brand/offers?status=closed'],
      'pending-applications': ['5', '/brand/offers?applications=pending'],
    });
    assert.deepEqual(
      calls.map((call) => `${call.method} ${call.path}`),
      ['GET /api/brand/offers/summary'],
    );
  });

  test('when the figures have not arrived, then each shows a dash', async () => {
    answerBff(() => new Promise<Response>(() => {}));

    renderInApp(<BrandOffersSummary />, { route: '/dashboard' });

    assert.equal(screen.getByTestId('open-offers').textContent, '–');
    assert.equal(screen.getByTestId('pending-applications').textContent, '–');
  });
});
