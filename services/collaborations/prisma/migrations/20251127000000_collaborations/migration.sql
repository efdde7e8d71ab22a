-- CreateEnum
CREATE TYPE "CollaborationStatus" AS ENUM ('active', 'completed', 'cancelled');

-- CreateEnum
CREATE TYPE "CollaborationParty" AS ENUM ('brand', 'creator');

-- CreateTable
CREATE TABLE "collaborations" (
    "id" UUID NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "application_id" UUID NOT NULL,
    "offer_id" UUID NOT NULL,
    "brand_id" UUID NOT NULL,
    "creator_id" TEXT NOT NULL,
    "offer_title" TEXT NOT NULL,
    "brand" JSONB NOT NULL,
    "creator_username" TEXT NOT NULL,
    "creator_profile_img" TEXT NOT NULL,
    "terms" JSONB,
    "status" "CollaborationStatus" NOT NULL DEFAULT 'active',
    "message_count" INTEGER NOT NULL DEFAULT 0,
    "last_message_at" TIMESTAMPTZ(3),
    "activity_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "unread_brand" INTEGER NOT NULL DEFAULT 0,
    "unread_creator" INTEGER NOT NULL DEFAULT 0,
    "seen_sequence_brand" INTEGER NOT NULL DEFAULT 0,
    "seen_sequence_creator" INTEGER NOT NULL DEFAULT 0,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "collaborations_pkey" PRIMARY KEY ("id"),
    -- The counters never go below zero, and no side has seen past the last message.
    CONSTRAINT "collaborations_counts_check" CHECK (
        "message_count" >= 0 AND "unread_brand" >= 0 AND "unread_creator" >= 0
        AND "seen_sequence_brand" BETWEEN 0 AND "message_count"
        AND "seen_sequence_creator" BETWEEN 0 AND "message_count")
);

-- CreateTable
CREATE TABLE "collaboration_messages" (
    "id" UUID NOT NULL,
    "collaboration_id" UUID NOT NULL,
    "client_id" UUID NOT NULL,
    "sequence" INTEGER NOT NULL,
    "sender_party" "CollaborationParty" NOT NULL,
    "sender_id" TEXT NOT NULL,
    "sender_handle" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "collaboration_messages_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "collaboration_messages_sequence_check" CHECK ("sequence" >= 1)
);

-- CreateIndex
CREATE UNIQUE INDEX "collaborations_application_id_key" ON "collaborations"("application_id");

-- CreateIndex
CREATE INDEX "collaborations_creator_id_activity_at_idx" ON "collaborations"("creator_id", "activity_at" DESC);

-- CreateIndex
CREATE INDEX "collaborations_brand_id_activity_at_idx" ON "collaborations"("brand_id", "activity_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "collaboration_messages_collaboration_id_sequence_key" ON "collaboration_messages"("collaboration_id", "sequence");

-- CreateIndex
CREATE UNIQUE INDEX "collaboration_messages_collaboration_id_client_id_key" ON "collaboration_messages"("collaboration_id", "client_id");

-- AddForeignKey
ALTER TABLE "collaboration_messages" ADD CONSTRAINT "collaboration_messages_collaboration_id_fkey" FOREIGN KEY ("collaboration_id") REFERENCES "collaborations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
