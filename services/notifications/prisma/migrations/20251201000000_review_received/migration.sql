-- A review the other side of a completed collaboration left (collaborations' `reviewed` entry).
ALTER TYPE "NotificationKind" ADD VALUE IF NOT EXISTS 'review_received';
