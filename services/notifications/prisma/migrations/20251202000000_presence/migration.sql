-- When each person was last seen with an open Raly socket (live.presence.v1 heartbeats of the
-- BFF's replicas): away once no heartbeat came for NOTIFICATIONS_AWAY_AFTER_MS.
CREATE TABLE "presence" (
    "person_id" TEXT NOT NULL,
    "seen_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "presence_pkey" PRIMARY KEY ("person_id")
);
