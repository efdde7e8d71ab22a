-- A conversation's unread item per recipient (docs/product-spec.md §12.1): a delivery of a
-- message looks it up to add no second item while the first is unread.
CREATE INDEX "notifications_unread_messages_idx" ON "notifications" ("recipient_id", "collaboration_id")
    WHERE "kind" = 'message_received' AND "read_at" IS NULL;
