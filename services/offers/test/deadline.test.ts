/**
 * The deadline sweep: open offers whose apply-by date has passed
 * are closed (reason `deadline`) every OFFERS_DEADLINE_SWEEP_MS (200 ms
 * here), with their event; offers another instance holds locked are
 * skipped (`FOR UPDATE SKIP LOCKED`) and closed once, later.
 */
import assert from 'node:assert/strict';
import { describe, test, beforeAll } from 'vitest';
import { eventTypes } from '@raly/contracts/events';
import type { OfferRecord } from '@raly/contracts/offers';
import { envelopeOf, eventually, sleep, type TopicListener } from '@raly/test-support';
import { type RalySystem, registeredBrand } from '@raly/test-support/system';
import { anOfferForm, asUser, useOffersSystem } from './support';

const harness = useOffersSystem({ OFFERS_DEADLINE_SWEEP_MS: '200' });
let system: RalySystem;
let offerEvents: TopicListener;
let brand: Awaited<ReturnType<typeof registeredBrand>>;

beforeAll(async () => {
  ({ system, offerEvents } = harness);
  brand = await registeredBrand(system);
});

async function postedOffer(open: boolean, applyBy?: string) {
  const answer = await asUser(system, brand.accessToken)<OfferRecord>(
    'POST',
    '/offers',
    anOfferForm({ open, ...(applyBy ? { applyBy } : {}) }),
  );
  assert.equal(answer.status, 201);
  return answer.body.data!;
}

const expire = (ids: string[]) =>
  system.sql.offers!.query(
    `UPDATE offers SET apply_by = now() - interval '1 second' WHERE id = ANY($1::uuid[])`,
    [ids],
  );

const stateOf = async (id: string) =>
  (
    await system.sql.offers!.query(
      'SELECT status, closed_reason, version, closed_at FROM offers WHERE id = $1',
      [id],
    )
  ).rows[0];

describe('the deadline sweep', () => {
  test('when an open offer’s apply-by date passes, then the sweep closes it for reason deadline and publishes it; drafts and offers still in time stay as they are', async () => {
    // Arrange
    const [expiring, inTime, draft] = await Promise.all([
      postedOffer(true),
      postedOffer(true),
      postedOffer(false),
    ]);

    // Act
    await expire([expiring.id, draft.id]);

    // Assert
    const event = envelopeOf<OfferRecord>(
      await offerEvents.waitFor(
        (message) =>
          message.key?.toString() === expiring.id &&
          envelopeOf(message).type === eventTypes.offerUpdated,
      ),
    );
    assert.equal(event.data.status, 'closed');
    assert.equal(event.data.closedReason, 'deadline');
    assert.ok(event.data.closedAt);
    assert.equal(event.version, 2);
    await sleep(500);
    assert.equal((await stateOf(inTime.id)).status, 'open');
    assert.equal((await stateOf(draft.id)).status, 'draft');
  });

  test('when another instance holds an expired offer locked, then the sweep skips it, closes the rest, and closes it once after the lock ends', async () => {
    // Arrange: two offers due in 2 s, one of them locked by another transaction
    const applyBy = new Date(Date.now() + 2_000).toISOString();
    const [held, free] = await Promise.all([
      postedOffer(true, applyBy),
      postedOffer(true, applyBy),
    ]);
    const other = await system.sql.offers!.connect();
    let heldMeanwhile: string;
    try {
      await other.query('BEGIN');
      await other.query('SELECT 1 FROM offers WHERE id = $1 FOR UPDATE', [held.id]);

      // Act: the date passes while the lock is held
      await eventually(
        'the free offer closed',
        async () => (await stateOf(free.id)).status === 'closed',
      );
      await sleep(600);
      heldMeanwhile = (await stateOf(held.id)).status;
      await other.query('COMMIT');
    } finally {
      other.release();
    }

    // Assert
    assert.equal(heldMeanwhile, 'open');
    const closed = await eventually('the held offer closed', async () => {
      const state = await stateOf(held.id);
      return state.status === 'closed' && state;
    });
    assert.equal(closed.closed_reason, 'deadline');
    await sleep(600);
    assert.equal((await stateOf(held.id)).version, 2, 'closed exactly once');
  });
});
