import { z } from 'zod';
import { CLUSTER_REQUEST_TIMEOUT, clientKubeconfigSetting, contextSetting, jsonSetting, prefixSetting } from '../../core/settings/common.ts';
import { durationSetting } from '../../core/settings/duration.ts';
import { positiveNumber } from '../../core/settings/parsers.ts';
import { type ConfigOf, defineSettings, setting } from '../../core/settings/table.ts';

/** The image pull policies Kubernetes accepts for a container (a containerDisk is one). */
export const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'] as const;

/** `virtgate canary` settings (the chart's CronJob passes them from `canary.*`). */
export const CANARY_SETTINGS = {
  namespace: setting({
    flag: '--namespace <namespace>',
    help: "the namespace the canary's VMIs run in (the chart creates it)",
    schema: z
      .string()
      .max(63)
      .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, 'must be a namespace name (a DNS label)'),
    default: 'virtgate-canary',
  }),
  diskImage: setting({ flag: '--disk-image <image>', help: "the canary guest's containerDisk image (virtgate/canary-disk)", schema: z.string().min(1), mandatory: true }),
  diskPullPolicy: setting({ flag: '--disk-pull-policy <policy>', help: 'Always | IfNotPresent | Never', schema: z.enum(PULL_POLICIES), default: 'IfNotPresent' }),
  maxVmis: setting({
    flag: '--max-vmis <count>',
    help: 'VMIs at once: at most this many node classes are tried per run',
    schema: z.number().int().min(1).max(100),
    parse: positiveNumber,
    default: 3,
  }),
  bootTimeoutSeconds: durationSetting({ flag: '--boot-timeout <duration>', help: "each VMI's bound, from its creation to the guest's marker", default: '3m', min: '5s', max: '30m' }),
  prefix: prefixSetting('prefix of the label and taint keys'),
  kubeconfig: clientKubeconfigSetting,
  context: contextSetting,
  requestTimeoutSeconds: CLUSTER_REQUEST_TIMEOUT,
  json: jsonSetting('print the run summary as JSON'),
  dryRun: setting({ flag: '--dry-run', help: 'pick the nodes and print them; create and publish nothing', schema: z.boolean(), default: false }),
};

export const canarySettings = defineSettings(CANARY_SETTINGS);

export type CanarySettings = ConfigOf<typeof CANARY_SETTINGS>;
