import { z } from 'zod';
import { DNS_SUBDOMAIN, DNS_SUBDOMAIN_PATTERN } from '../core/dns-name.ts';
import { TAINT_POLICIES } from '../core/report/schema.ts';
import { DEFAULT_POLICY } from '../core/checks/policy.ts';
import { DEFAULT_VHV_OPTIONS } from '../core/checks/families/vhv.ts';
import {
  bindAddressSetting,
  checkWatchTiming,
  inClusterKubeconfigSetting,
  logLevelSetting,
  portSetting,
  prefixSetting,
  requestTimeoutSetting,
  vhvTimeoutSetting,
  watchSettings,
} from '../core/settings/common.ts';
import { durationSetting } from '../core/settings/duration.ts';
import { majorMinor, share } from '../core/settings/parsers.ts';
import { type ConfigOf, defineSettings, setting } from '../core/settings/table.ts';

const labelKey = new RegExp(`^(${DNS_SUBDOMAIN_PATTERN}\\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$`);
// Equality- and set-based label selector syntax, checked early so a typo stops the agent at
// start; the API server parses the selector for real when the share guard lists the pool.
const VALUE = '[A-Za-z0-9._-]*';
const TERM = `\\s*!?\\s*[A-Za-z0-9./_-]+\\s*(?:(?:==?|!=)\\s*${VALUE}|\\s+(?:in|notin)\\s*\\(\\s*${VALUE}(?:\\s*,\\s*${VALUE})*\\s*\\))?\\s*`;
const labelSelector = new RegExp(`^${TERM}(?:,${TERM})*$`);

export const taintPolicySchema = z.enum(TAINT_POLICIES);

const NODE_NAME_MESSAGE = 'must be the Node name (a DNS subdomain); set NODE_NAME from the downward API';

/**
 * `virtgate agent` settings, one entry each; the table's shape is AgentConfig's. The Helm chart
 * passes these flags (charts/virtgate/templates/agent): keep their names.
 */
export const AGENT_SETTINGS = {
  nodeName: setting({
    flag: '--node-name <name>',
    help: 'this Node (from the downward API)',
    schema: z.string({ error: NODE_NAME_MESSAGE }).regex(DNS_SUBDOMAIN, NODE_NAME_MESSAGE).max(253),
    env: 'NODE_NAME',
    chart: false,
  }),
  // The chart mounts the host at /host.
  hostRoot: setting({ flag: '--host-root <dir>', help: 'where the host is mounted', schema: z.string().min(1), default: '/', env: 'VIRTGATE_HOST_ROOT', chart: false }),
  kubeconfig: inClusterKubeconfigSetting,
  prefix: prefixSetting('prefix of every label, annotation and taint key'),
  intervalSeconds: durationSetting({ flag: '--interval <duration>', help: 'probe interval (jittered)', default: '5m', min: '10s', max: '1d' }),
  jitter: setting({ flag: '--jitter <share>', help: 'spread of the interval, 0-0.5', schema: z.number().min(0).max(0.5), parse: Number, default: 0.1 }),
  heartbeatSeconds: durationSetting({ flag: '--heartbeat <duration>', help: 'refresh the report and condition at most this often', default: '10m', min: '60s', max: '1d' }),
  port: portSetting('HTTP port for /metrics, /healthz, /readyz'),
  bindAddress: bindAddressSetting,
  // Shorter than the cluster-wide programs' 30 s: the agent only reads and writes its own Node.
  requestTimeoutSeconds: requestTimeoutSetting('15s'),
  publishFailureThresholdSeconds: durationSetting({
    flag: '--publish-failure-threshold <duration>',
    help: '/readyz fails once publishing has failed this long',
    default: '2m',
    min: '1s',
  }),
  policy: {
    allowEmulation: setting({
      flag: '--allow-emulation',
      help: 'count the emulation tier (no usable KVM; VMs only with KubeVirt useEmulation) as ready',
      schema: z.boolean(),
      default: DEFAULT_POLICY.allowEmulation,
      chart: 'agent.allowEmulation',
    }),
    minKernel: setting({
      flag: '--min-kernel <major.minor>',
      help: 'kernels below this fail',
      schema: z.string().regex(/^\d+\.\d+$/),
      parse: majorMinor,
      default: DEFAULT_POLICY.minKernel,
      chart: 'agent.minKernel',
    }),
  },
  vhv: {
    enabled: setting({ flag: '--no-vhv', help: 'leave virt-host-validate out', schema: z.boolean(), default: true, chart: 'agent.virtHostValidate.enabled' }),
    // The image ships it.
    command: setting({ flag: '--vhv-command <path>', help: 'the virt-host-validate executable', schema: z.string().min(1), default: DEFAULT_VHV_OPTIONS.command, chart: false }),
    timeoutSeconds: vhvTimeoutSetting,
  },
  kvmRun: setting({ flag: '--no-kvm-run', help: 'leave out the tiny KVM guest (check kvm.run) of each probe cycle', schema: z.boolean(), default: true }),
  taint: {
    policy: setting({
      flag: '--taint-policy <policy>',
      help: 'off: never taint | not-ready: taint failing nodes of the pool <prefix>/not-ready | bootstrap: remove the registration taint once the node passes',
      schema: taintPolicySchema,
      default: 'off',
    }),
    poolSelector: setting({
      flag: '--taint-pool-selector <selector>',
      help: 'label selector of the nodes the not-ready policy may taint (empty: all)',
      schema: z.string().refine((s) => s === '' || labelSelector.test(s), 'is not a label selector'),
      default: '',
    }),
    effect: setting({ flag: '--taint-effect <effect>', help: 'NoSchedule | NoExecute', schema: z.enum(['NoSchedule', 'NoExecute']), default: 'NoSchedule' }),
    allowNoExecute: setting({ flag: '--allow-no-execute', help: 'permit --taint-effect NoExecute (evicts running pods)', schema: z.boolean(), default: false }),
    maxShare: setting({
      flag: '--taint-max-share <share>',
      help: 'never taint more than this share of the pool',
      schema: z.number().gt(0).max(1),
      parse: share,
      default: 0.5,
    }),
    bootstrapKey: setting({
      flag: '--bootstrap-taint-key <key>',
      help: 'bootstrap policy: remove this registration taint once the node is ready',
      // The chart passes an empty key when none is set.
      schema: z.preprocess((key) => (key === '' ? undefined : key), z.string().regex(labelKey, 'is not a taint key').optional()),
    }),
  },
  watch: watchSettings({ staleAfter: '6m', backoffBase: '1s' }),
  // Below the chart's terminationGracePeriodSeconds (30 s), so the agent ends before the kubelet kills it.
  shutdownGraceSeconds: durationSetting({ flag: '--shutdown-grace <duration>', help: 'on SIGTERM, wait this long for a write in flight', default: '20s', min: '1s', max: '25s' }),
  logLevel: logLevelSetting,
};

export const agentSettings = defineSettings(AGENT_SETTINGS, (config, ctx) => {
  if (config.taint.effect === 'NoExecute' && !config.taint.allowNoExecute) {
    ctx.addIssue({ code: 'custom', path: ['taint', 'effect'], message: 'NoExecute evicts running pods; also pass --allow-no-execute to mean it' });
  }
  if (config.taint.policy === 'bootstrap' && !config.taint.bootstrapKey) {
    ctx.addIssue({ code: 'custom', path: ['taint', 'bootstrapKey'], message: 'the bootstrap policy needs --bootstrap-taint-key' });
  }
  checkWatchTiming(config.watch, ctx);
  if (config.heartbeatSeconds < config.intervalSeconds) {
    ctx.addIssue({ code: 'custom', path: ['heartbeatSeconds'], message: 'must not be shorter than the probe interval' });
  }
});

export type AgentConfig = ConfigOf<typeof AGENT_SETTINGS>;
export type TaintConfig = AgentConfig['taint'];

export const AGENT_DEFAULTS = agentSettings.defaults;

/** Validates a configuration; the error names the first bad setting, as the user spells it, in one line. */
export function parseAgentConfig(input: unknown): AgentConfig {
  return agentSettings.parse(input);
}
