-- E-mails a person turned off, by category (RFC 8058 one-click unsubscribe): the digest sweep opens
-- no digest and the mail relay sends nothing of a category a person opted out of.
CREATE TYPE "EmailCategory" AS ENUM ('digest');

CREATE TABLE "email_opt_outs" (
    "person_id" TEXT NOT NULL,
    "category" "EmailCategory" NOT NULL,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "email_opt_outs_pkey" PRIMARY KEY ("person_id", "category")
);
