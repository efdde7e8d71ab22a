-- Who on the brand's side accepted or declined an application: the deciding
-- member's handle in the brand's team (docs/product-spec.md §13.2), as it was
-- when they decided. Never a name or an e-mail. Null for a member without a
-- handle, for a pending or withdrawn application, and for every application
-- decided before this column existed.

-- AlterTable
ALTER TABLE "applications" ADD COLUMN "decided_by_handle" TEXT;
