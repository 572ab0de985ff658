/** A node's tier, in its own module so the aggregator's documents (read by the browser page) can use it without the check registry. */
export const TIERS = ['hardware', 'emulation', 'none'] as const;
export type Tier = (typeof TIERS)[number];
