import { CLUSTER_REQUEST_TIMEOUT, clientKubeconfigSetting, contextSetting, prefixSetting } from '../../core/settings/common.ts';
import { z } from 'zod';
import { type ConfigOf, defineSettings, setting } from '../../core/settings/table.ts';

/** `virtgate prune` settings (the Helm pre-delete hook passes --prefix through VIRTGATE_PREFIX). */
export const PRUNE_SETTINGS = {
  prefix: prefixSetting('prefix of the label, annotation and taint keys'),
  kubeconfig: clientKubeconfigSetting,
  context: contextSetting,
  dryRun: setting({ flag: '--dry-run', help: 'say what would be removed; the server checks each write and discards it', schema: z.boolean(), default: false }),
  requestTimeoutSeconds: CLUSTER_REQUEST_TIMEOUT,
};

export const pruneSettings = defineSettings(PRUNE_SETTINGS);

export type PruneSettings = ConfigOf<typeof PRUNE_SETTINGS>;
