import { type NodeValidationStatus, nodeValidationStatusSchema } from '../../core/report/schema.ts';

/**
 * Which keys of a NodeValidation's `status` are the agent's, and the JSON Patch that writes them.
 *
 * `status` has two writers: the agent, and the VM canary, which writes only `status.vmBoot` (with
 * `add /status/vmBoot`). Each writes its own keys one by one, never `status` whole, so neither
 * overwrites the other; the chart's admission policies hold each to its part (docs/security.md).
 */

/** The status keys another program writes: the agent never writes, compares or removes them. */
export const CANARY_STATUS_KEYS = ['vmBoot'] as const satisfies readonly (keyof NodeValidationStatus)[];

const isCanaryKey = (key: string): boolean => (CANARY_STATUS_KEYS as readonly string[]).includes(key);

/**
 * The agent's keys: every key the report schema declares but the canary's. Any of them may be
 * absent from a report (the confidential summary, CPU vendor and features, inventory, host
 * devices): a whole write clears those.
 */
export const AGENT_DECLARED_STATUS_KEYS: readonly string[] = Object.keys(nodeValidationStatusSchema.shape).filter((key) => !isCanaryKey(key));

/** Whether the agent owns a published status key: every key but the canary's. */
export function isAgentStatusKey(key: string): boolean {
  return !isCanaryKey(key);
}

export interface StatusOperation {
  op: 'add';
  path: string;
  value: unknown;
}

/**
 * The JSON Patch for `nodevalidations/status`. `add` replaces each given key whole (a merge patch
 * would keep keys that vanished from a nested field, and the report would never again equal what
 * the agent computes).
 *
 * - `whole`: the agent's whole status. Where no status exists yet, one `add /status`; else one
 *   `add /status/<key>` per key, and `add` null for each declared agent key the report no longer
 *   has: the API server prunes a null it stores for a field the schema does not mark nullable, so
 *   the key is gone, whether or not it was there (a JSON Patch `remove` of an absent key is a 422,
 *   and what is stored may have changed since the agent read it). Proven against the real API
 *   server in test/integration/report-status-writers.test.ts.
 * - not `whole`: only the given keys (the heartbeat's timestamps).
 */
export function statusPatch(fields: Partial<NodeValidationStatus>, whole: boolean, statusExists: boolean): StatusOperation[] {
  const given = Object.entries(fields).filter(([key, value]) => value !== undefined && isAgentStatusKey(key));
  if (whole && !statusExists) return [{ op: 'add', path: '/status', value: Object.fromEntries(given) }];
  const operations: StatusOperation[] = given.map(([key, value]) => ({ op: 'add', path: `/status/${key}`, value }));
  if (whole) {
    const present = new Set(given.map(([key]) => key));
    for (const key of AGENT_DECLARED_STATUS_KEYS) if (!present.has(key)) operations.push({ op: 'add', path: `/status/${key}`, value: null });
  }
  return operations;
}
