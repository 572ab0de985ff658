import { z } from 'zod';

/** What virtgate put on a node, recorded in an annotation so it only ever removes its own keys. */
export interface Ownership {
  labels: string[];
  taints: string[];
}

const ownershipSchema = z.object({
  labels: z.array(z.string()).default([]),
  taints: z.array(z.string()).default([]),
});

export const NO_OWNERSHIP: Ownership = { labels: [], taints: [] };

/** Reads the annotation; a missing or mangled one means virtgate owns nothing yet (it removes nothing). */
export function parseOwnership(annotation: string | undefined): Ownership {
  if (!annotation) return NO_OWNERSHIP;
  try {
    const parsed = ownershipSchema.safeParse(JSON.parse(annotation));
    return parsed.success ? parsed.data : NO_OWNERSHIP;
  } catch {
    return NO_OWNERSHIP;
  }
}

/** Canonical form (sorted), so equal ownership always serialises to the same string: no needless writes. */
export function formatOwnership(ownership: Ownership): string {
  return JSON.stringify({ labels: [...new Set(ownership.labels)].sort(), taints: [...new Set(ownership.taints)].sort() });
}
