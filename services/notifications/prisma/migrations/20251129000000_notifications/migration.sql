-- CreateEnum
CREATE TYPE "NotificationKind" AS ENUM (
    'offer_matched', 'application_received', 'application_accepted', 'application_declined',
    'application_withdrawn', 'message_received', 'deliverable_submitted', 'changes_requested',
    'deliverable_approved', 'review_disputed', 'auto_approval_due', 'deliverable_auto_approved',
    'payment_marked', 'payment_overdue');

-- CreateTable
CREATE TABLE "people" (
    "id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "brand_id" TEXT,
    "interests" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "wants_offers" BOOLEAN NOT NULL,
    "updated" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "people_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "collaborations" (
    "id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "creator_id" TEXT NOT NULL,
    "brand_id" TEXT NOT NULL,
    "offer_id" TEXT NOT NULL,
    "offer_title" TEXT NOT NULL,
    "brand_name" TEXT NOT NULL,
    "creator_username" TEXT NOT NULL,
    "updated" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "collaborations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "offer_announcements" (
    "offer_id" TEXT NOT NULL,
    "last_person_id" TEXT NOT NULL DEFAULT '',
    "done" BOOLEAN NOT NULL DEFAULT false,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "offer_announcements_pkey" PRIMARY KEY ("offer_id")
);

-- CreateTable
CREATE TABLE "notifications" (
    "id" UUID NOT NULL,
    "sequence" BIGSERIAL NOT NULL,
    "recipient_id" TEXT NOT NULL,
    "kind" "NotificationKind" NOT NULL,
    "source_topic" TEXT NOT NULL,
    "aggregate_id" TEXT NOT NULL,
    "aggregate_version" INTEGER NOT NULL,
    "occurrence" TEXT NOT NULL,
    "offer_id" TEXT,
    "application_id" TEXT,
    "collaboration_id" TEXT,
    "title" TEXT NOT NULL,
    "counterpart" TEXT,
    "read_at" TIMESTAMPTZ(3),
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inboxes" (
    "person_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "unread" INTEGER NOT NULL,
    "updated" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inboxes_pkey" PRIMARY KEY ("person_id"),
    CONSTRAINT "inboxes_unread_check" CHECK ("unread" >= 0 AND "version" >= 1)
);

-- CreateIndex
CREATE INDEX "people_brand_id_idx" ON "people"("brand_id");

-- The creators an opened offer is announced to: those who want offers, by interest.
CREATE INDEX "people_interests_wanting_offers_idx" ON "people" USING GIN ("interests") WHERE "wants_offers";

-- CreateIndex
CREATE UNIQUE INDEX "notifications_recipient_id_source_topic_aggregate_id_occurrence_key" ON "notifications"("recipient_id", "source_topic", "aggregate_id", "occurrence");

-- CreateIndex
CREATE UNIQUE INDEX "notifications_sequence_key" ON "notifications"("sequence");

-- CreateIndex
CREATE INDEX "notifications_recipient_id_sequence_idx" ON "notifications"("recipient_id", "sequence" DESC);

-- The unread items of a person (read-all, the unread count).
CREATE INDEX "notifications_unread_idx" ON "notifications"("recipient_id") WHERE "read_at" IS NULL;
