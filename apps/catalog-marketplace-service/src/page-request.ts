import type { PageRequest } from '@ris/contracts';
import type { PageQuery } from '@ris/mongo';

/** The gateway validates page bounds; services clamp defensively. */
export function pageFromProto(page: PageRequest | undefined): PageQuery {
  return { page: Math.max(1, page?.page || 1), limit: Math.min(100, Math.max(1, page?.limit || 25)) };
}
