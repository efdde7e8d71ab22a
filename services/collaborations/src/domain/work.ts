/**
 * The work a collaboration opens with (docs/product-spec.md §11): one
 * pending deliverable per line of the offer's deliverables, the payment
 * Raly will record, and the timeline's first entry.
 */
import { randomUUID } from 'node:crypto';
import {
  deliverableTitlesOf,
  type Deliverable,
  type Payment,
  type TimelineEntry,
} from '@raly/contracts/collaboration-work';
import type { CollaborationTerms } from '@raly/contracts/collaborations';
import type { Money } from '@raly/contracts/offers';

/** A collaboration's work as its snapshot carries it. */
export interface CollaborationWork {
  deliverables: Deliverable[];
  payment: Payment;
  timeline: TimelineEntry[];
}

/** A new pending deliverable (fresh id, nothing handed in). */
export function newDeliverable(title: string, dueAt: string | null = null): Deliverable {
  return {
    id: randomUUID(),
    title,
    dueAt,
    status: 'pending',
    changeRequests: 0,
    reviewDueAt: null,
    submissions: [],
    reviews: [],
  };
}

/** The amount due: the accepted proposed rate, else a fixed compensation's amount; null when unknown. */
function amountOf(terms: CollaborationTerms | null): Money | null {
  if (!terms) return null;
  if (terms.agreedRate) return terms.agreedRate;
  const { compensation } = terms;
  return compensation.kind === 'fixed'
    ? { amountMinor: compensation.amountMinor, currency: compensation.currency }
    : null;
}

/**
 * The work of a collaboration opening now.
 * @param terms the terms frozen at acceptance (null: one item "Deliverables", amount unknown)
 * @param now the opening time
 */
export function openingWork(terms: CollaborationTerms | null, now: Date): CollaborationWork {
  const productOnly = terms?.compensation.kind === 'product' && !terms.agreedRate;
  return {
    deliverables: deliverableTitlesOf(terms?.deliverables ?? '').map((title) =>
      newDeliverable(title),
    ),
    payment: {
      status: productOnly ? 'not_applicable' : 'not_due',
      amount: amountOf(terms),
      reference: null,
      dueAt: null,
      paidAt: null,
      confirmedAt: null,
      overdue: false,
    },
    timeline: [{ kind: 'opened', at: now.toISOString(), party: null, deliverableId: null }],
  };
}
