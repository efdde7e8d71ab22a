-- E-mails waiting for the mail relay: one per digest (unique), sent with retries; a row is marked
-- sent only after the SMTP server accepted it.
CREATE TYPE "MailStatus" AS ENUM ('pending', 'sent', 'cancelled', 'failed');

CREATE TABLE "mail_outbox" (
    "id" UUID NOT NULL,
    "digest_id" UUID NOT NULL,
    "recipient_id" TEXT NOT NULL,
    "status" "MailStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_error" TEXT,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),

    CONSTRAINT "mail_outbox_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "mail_outbox_digest_id_fkey" FOREIGN KEY ("digest_id") REFERENCES "digests"("id") ON DELETE CASCADE
);

CREATE UNIQUE INDEX "mail_outbox_digest_id_key" ON "mail_outbox"("digest_id");

-- The relay's claim: due pending rows only (the schema language cannot state a partial index).
CREATE INDEX "mail_outbox_due_idx" ON "mail_outbox"("next_attempt_at") WHERE "status" = 'pending';
