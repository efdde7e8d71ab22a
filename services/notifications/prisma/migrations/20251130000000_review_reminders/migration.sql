-- CreateTable
CREATE TABLE "review_reminders" (
    "collaboration_id" TEXT NOT NULL,
    "deliverable_id" TEXT NOT NULL,
    "round" INTEGER NOT NULL,
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "sent_at" TIMESTAMPTZ(3),

    CONSTRAINT "review_reminders_pkey" PRIMARY KEY ("collaboration_id", "deliverable_id", "round")
);

-- The reminders the sweep may send next, by due date.
CREATE INDEX "review_reminders_due_idx" ON "review_reminders"("due_at") WHERE "sent_at" IS NULL;
