-- A person's notification preferences, by category and channel (docs/product-spec.md §12.5).
-- Everything is on by default, so only the switches turned off are stored: a row is one channel of
-- one category a person turned off. The digest's one-click unsubscribe (RFC 8058) writes here too
-- (category 'digest', channel 'email'): the opt-outs of email_opt_outs move in and that table goes.
CREATE TYPE "NotificationCategory" AS ENUM ('offers', 'applications', 'collaborations', 'digest');
CREATE TYPE "NotificationChannel" AS ENUM ('in_app', 'email');

CREATE TABLE "notification_preferences" (
    "person_id" TEXT NOT NULL,
    "category" "NotificationCategory" NOT NULL,
    "channel" "NotificationChannel" NOT NULL,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_preferences_pkey" PRIMARY KEY ("person_id", "category", "channel"),
    CONSTRAINT "notification_preferences_digest_by_email" CHECK ("category" <> 'digest' OR "channel" = 'email')
);

INSERT INTO "notification_preferences" ("person_id", "category", "channel", "created")
SELECT "person_id", 'digest', 'email', "created" FROM "email_opt_outs" WHERE "category" = 'digest'
ON CONFLICT DO NOTHING;

DROP TABLE "email_opt_outs";
DROP TYPE "EmailCategory";
