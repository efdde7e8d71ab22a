-- One e-mail digest per away person and window: the range of their notifications (by sequence)
-- it tells of. At send time only the items of the range still unread are counted.
CREATE TABLE "digests" (
    "id" UUID NOT NULL,
    "person_id" TEXT NOT NULL,
    "after_sequence" BIGINT NOT NULL,
    "through_sequence" BIGINT NOT NULL,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "digests_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "digests_person_id_created_idx" ON "digests"("person_id", "created" DESC);
