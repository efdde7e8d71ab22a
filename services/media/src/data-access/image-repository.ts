/**
 * The images table (the only module that touches it): every stored image is
 * recorded with the event the domain chose (`media.image.stored`,
 * `../domain/events`) in one transaction through the service's event writer
 * (@raly/service-kit/outbox).
 */
import type { ImageStored } from '@raly/contracts/events';
import type { ImageKind, ImageOwnerType } from '@raly/contracts/images';
import type { OutboxRow } from '@raly/service-kit/outbox';
import type { PrismaClient } from '../generated/prisma/client';
import type { MediaEvents } from './database';

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

/** The repository over the service's Prisma client; writes go through `events`. */
export function imageRepository(prisma: PrismaClient, events: MediaEvents): ImageRepository {
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
      return events.transaction(async (tx, record) => {
        const { key, contentType, sizeBytes } = image;
        const row = await tx.image.upsert({
          where: idOf(image),
          create: { ...image, isDefault: false },
          update: { key, contentType, sizeBytes, isDefault: false, version: { increment: 1 } },
        });
        const stored: ImageStored = { ...image, url: urlOf(key, row.version) };
        await record(event(stored, row.version));
        return stored;
      });
    },
    async recordDefault(image, urlOf, event) {
      return events.transaction(async (tx, record) => {
        const { count } = await tx.image.createMany({
          data: [{ ...image, isDefault: true }],
          skipDuplicates: true,
        });
        if (count === 0) return null;
        const stored: ImageStored = { ...image, url: urlOf(image.key, 1), isDefault: true };
        await record(event(stored, 1));
        return stored;
      });
    },
  };
}
