-- The work of a collaboration: its deliverables (with their submissions and
-- reviews), the payment Raly records, the cancellation and the timeline, kept
-- as JSONB in the shapes of @raly/contracts/collaboration-work (the snapshot
-- is the contract; a row is always read and written whole, under its lock).
ALTER TABLE "collaborations"
    ADD COLUMN "deliverables" JSONB NOT NULL DEFAULT '[]',
    ADD COLUMN "payment" JSONB NOT NULL DEFAULT '{"status":"not_due","amount":null,"reference":null,"dueAt":null,"paidAt":null,"confirmedAt":null,"overdue":false}',
    ADD COLUMN "cancellation" JSONB,
    ADD COLUMN "timeline" JSONB NOT NULL DEFAULT '[]',
    -- The earliest review due date of a submitted deliverable (null: none waits): the auto-approval sweep's key.
    ADD COLUMN "review_due_at" TIMESTAMPTZ(3),
    -- When the payment became due, while it is due or paid, unconfirmed and not yet overdue: the overdue sweep's key.
    ADD COLUMN "payment_unsettled_since" TIMESTAMPTZ(3);

-- The sweeps read only the few rows that wait for them.
CREATE INDEX "collaborations_review_due_at_idx" ON "collaborations"("review_due_at")
    WHERE "review_due_at" IS NOT NULL;
CREATE INDEX "collaborations_payment_unsettled_since_idx" ON "collaborations"("payment_unsettled_since")
    WHERE "payment_unsettled_since" IS NOT NULL;
