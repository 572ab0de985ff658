import { z } from 'zod';
import { DEFAULT_PREFIX, isValidPrefix } from '../core/kube/names.ts';
import { DEVICE_SPECS } from '../core/checks/device-numbers.ts';
import { DEFAULT_POLICY } from '../core/checks/policy.ts';
import { DEFAULT_VHV_OPTIONS } from '../core/checks/vhv.ts';

const dnsSubdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const labelKey = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
// Equality- and set-based label selector syntax, checked early so a typo stops the agent at
// start; the API server parses the selector for real when the share guard lists the pool.
const VALUE = '[A-Za-z0-9._-]*';
const TERM = `\\s*!?\\s*[A-Za-z0-9./_-]+\\s*(?:(?:==?|!=)\\s*${VALUE}|\\s+(?:in|notin)\\s*\\(\\s*${VALUE}(?:\\s*,\\s*${VALUE})*\\s*\\))?\\s*`;
const labelSelector = new RegExp(`^${TERM}(?:,${TERM})*$`);

export const taintPolicySchema = z.enum(['off', 'not-ready', 'bootstrap']);

export const agentConfigSchema = z
  .object({
    nodeName: z.string().regex(dnsSubdomain, 'must be the Node name (a DNS subdomain); set NODE_NAME from the downward API').max(253),
    hostRoot: z.string().min(1),
    kubeconfig: z.string().optional(),
    prefix: z.string().refine(isValidPrefix, 'must be a DNS subdomain outside kubevirt.io, kubernetes.io and k8s.io'),
    intervalSeconds: z.number().min(10, 'must be at least 10 s').max(86_400),
    jitter: z.number().min(0).max(0.5),
    heartbeatSeconds: z.number().min(60, 'must be at least 60 s').max(86_400),
    port: z.number().int().min(0).max(65_535),
    bindAddress: z.string().min(1),
    requestTimeoutSeconds: z.number().min(1).max(300),
    publishFailureThresholdSeconds: z.number().min(1),
    policy: z.object({ allowEmulation: z.boolean(), minKernel: z.string().regex(/^\d+\.\d+$/) }),
    vhv: z.object({ enabled: z.boolean(), command: z.string().min(1), timeoutSeconds: z.number().positive().max(600) }),
    /** Run the tiny KVM guest (kvm.run) every probe cycle: it is cheap (README, Benchmarks). */
    kvmRun: z.boolean().default(true),
    deviceNumbers: z.custom<typeof DEVICE_SPECS>(),
    taint: z.object({
      policy: taintPolicySchema,
      poolSelector: z.string().refine((s) => s === '' || labelSelector.test(s), 'is not a label selector'),
      effect: z.enum(['NoSchedule', 'NoExecute']),
      allowNoExecute: z.boolean(),
      maxShare: z.number().gt(0).max(1),
      bootstrapKey: z.string().regex(labelKey, 'is not a taint key').optional(),
    }),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace']),
  })
  .superRefine((config, ctx) => {
    if (config.taint.effect === 'NoExecute' && !config.taint.allowNoExecute) {
      ctx.addIssue({ code: 'custom', path: ['taint', 'effect'], message: 'NoExecute evicts running pods; also pass --allow-no-execute to mean it' });
    }
    if (config.taint.policy === 'bootstrap' && !config.taint.bootstrapKey) {
      ctx.addIssue({ code: 'custom', path: ['taint', 'bootstrapKey'], message: 'the bootstrap policy needs --bootstrap-taint-key' });
    }
    if (config.heartbeatSeconds < config.intervalSeconds) {
      ctx.addIssue({ code: 'custom', path: ['heartbeatSeconds'], message: 'must not be shorter than the probe interval' });
    }
  });

export type AgentConfig = z.infer<typeof agentConfigSchema>;
export type TaintConfig = AgentConfig['taint'];

export const AGENT_DEFAULTS = {
  hostRoot: '/',
  prefix: DEFAULT_PREFIX,
  intervalSeconds: 300,
  jitter: 0.1,
  heartbeatSeconds: 600,
  port: 8080,
  bindAddress: '0.0.0.0',
  requestTimeoutSeconds: 15,
  publishFailureThresholdSeconds: 120,
  policy: DEFAULT_POLICY,
  vhv: { enabled: true, ...DEFAULT_VHV_OPTIONS },
  taint: { policy: 'off', poolSelector: '', effect: 'NoSchedule', allowNoExecute: false, maxShare: 0.5 },
  logLevel: 'info',
} as const;

/** The flag (and environment variable) a user sets for each setting, for error messages. */
const SETTING_NAMES: Record<string, string> = {
  nodeName: '--node-name / NODE_NAME',
  hostRoot: '--host-root',
  prefix: '--prefix',
  intervalSeconds: '--interval',
  jitter: '--jitter',
  heartbeatSeconds: '--heartbeat',
  port: '--port',
  bindAddress: '--bind-address',
  requestTimeoutSeconds: '--request-timeout',
  publishFailureThresholdSeconds: '--publish-failure-threshold',
  'policy.minKernel': '--min-kernel',
  'vhv.command': '--vhv-command',
  'vhv.timeoutSeconds': '--vhv-timeout',
  'taint.policy': '--taint-policy',
  'taint.poolSelector': '--taint-pool-selector',
  'taint.effect': '--taint-effect',
  'taint.maxShare': '--taint-max-share',
  'taint.bootstrapKey': '--bootstrap-taint-key',
  logLevel: '--log-level',
};

/** Validates a configuration; the error names the first bad setting, as the user spells it, in one line. */
export function parseAgentConfig(input: unknown): AgentConfig {
  const result = agentConfigSchema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = issue?.path.join('.') ?? '';
  throw new Error(`${SETTING_NAMES[path] ?? (path || 'configuration')}: ${issue?.message ?? 'invalid value'}`);
}
