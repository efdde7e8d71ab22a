/**
 * The images table and the outbox (the only module that touches them):
 * every stored image is recorded with the event the domain chose
 * (`media.image.stored`, `../domain/events`) in one transaction.
 */
import type { ImageStored } from '@raly/contracts/events';
import type { ImageKind, ImageOwnerType } from '@raly/contracts/images';
import type { OutboxRow } from '@raly/service-kit/outbox';
import type { PrismaClient } from '../generated/prisma/client';

/** What was stored (the URL is made from the key and the new version). */
export interface StoredImage {
  ownerType: ImageOwnerType;
  ownerId: string;
  kind: ImageKind;
  key: string;
  contentType: string;
  sizeBytes: number;
}

/** The download URL of a key at a version. */
export type UrlOf = (key: string, version: number) => string;

/** The event a recorded image raises, from what was recorded and the image's version. */
export type RaiseImageEvent = (image: ImageStored, version: number) => OutboxRow;

export interface ImageRepository {
  /** The key the owner's image of this kind is stored at, or null. */
  currentKey(ownerType: ImageOwnerType, ownerId: string, kind: ImageKind): Promise<string | null>;
  /**
   * Records an upload (replacing the owner's image of this kind, version + 1) and `event(…)`.
   * @returns the event's data (with the download URL)
   */
  recordUpload(image: StoredImage, urlOf: UrlOf, event: RaiseImageEvent): Promise<ImageStored>;
  /**
   * Records a default picture and `event(…)`, unless the owner already has an image of this kind.
   * @returns the event's data, or null when nothing was recorded
   */
  recordDefault(
    image: StoredImage,
    urlOf: UrlOf,
    event: RaiseImageEvent,
  ): Promise<ImageStored | null>;
}

export function imageRepository(prisma: PrismaClient): ImageRepository {
  const idOf = (image: Pick<StoredImage, 'ownerType' | 'ownerId' | 'kind'>) => ({
    ownerType_ownerId_kind: {
      ownerType: image.ownerType,
      ownerId: image.ownerId,
      kind: image.kind,
    },
  });
  return {
    async currentKey(ownerType, ownerId, kind) {
      const row = await prisma.image.findUnique({
        where: idOf({ ownerType, ownerId, kind }),
        select: { key: true },
      });
      return row?.key ?? null;
    },
    async recordUpload(image, urlOf, event) {
      return prisma.$transaction(async (tx) => {
        const { key, contentType, sizeBytes } = image;
        const row = await tx.image.upsert({
          where: idOf(image),
          create: { ...image, isDefault: false },
          update: { key, contentType, sizeBytes, isDefault: false, version: { increment: 1 } },
        });
        const stored: ImageStored = { ...image, url: urlOf(key, row.version) };
        await tx.outboxMessage.create({ data: event(stored, row.version) });
        return stored;
      });
    },
    async recordDefault(image, urlOf, event) {
      return prisma.$transaction(async (tx) => {
        const { count } = await tx.image.createMany({
          data: [{ ...image, isDefault: true }],
          skipDuplicates: true,
        });
        if (count === 0) return null;
        const stored: ImageStored = { ...image, url: urlOf(image.key, 1), isDefault: true };
        await tx.outboxMessage.create({ data: event(stored, 1) });
        return stored;
      });
    },
  };
}
