-- The images handed in with submissions. A submission keeps its image's id in
-- its JSONB (`imageId`); this table indexes them by collaboration, so the
-- media service can ask, for one of the collaboration's parties, whether an
-- image belongs to the collaboration before serving its bytes. The bytes live
-- in S3 (services/media) under the collaboration, never at a public key.

-- CreateTable
CREATE TABLE "deliverable_images" (
    "collaboration_id" UUID NOT NULL,
    "image_id" TEXT NOT NULL,
    "deliverable_id" TEXT NOT NULL,
    "round" INTEGER NOT NULL,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deliverable_images_pkey" PRIMARY KEY ("collaboration_id","image_id")
);

-- AddForeignKey
ALTER TABLE "deliverable_images" ADD CONSTRAINT "deliverable_images_collaboration_id_fkey" FOREIGN KEY ("collaboration_id") REFERENCES "collaborations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
