-- Partial indexes for the outbox relay (services/kit outbox.ts), kept out of
-- schema.prisma because Prisma's schema language has no partial indexes
-- (migrate keeps manually created ones).
-- The claim query reads only due rows in commit order: index just those, so
-- it stays fast however many rows have been published.
CREATE INDEX "outbox_due_sequence_idx" ON "outbox"("sequence") WHERE "status" IN ('pending', 'failed');

-- Pruning deletes published rows past the retention, oldest first.
CREATE INDEX "outbox_published_at_idx" ON "outbox"("published_at") WHERE "status" = 'published';
