import { z } from 'zod';
import { DEFAULT_VHV_OPTIONS } from '../checks/families/vhv.ts';
import { DNS_SUBDOMAIN, DNS_SUBDOMAIN_MAX } from '../dns-name.ts';
import { DEFAULT_PREFIX, isValidPrefix } from '../kube/names.ts';
import type { StringValue } from 'ms';
import { durationSetting } from './duration.ts';
import { port } from './parsers.ts';
import { setting } from './table.ts';

/** Settings several programs share; each program picks them into its own table. */

const PREFIX_MESSAGE = 'must be a DNS subdomain outside kubevirt.io, kubernetes.io and k8s.io';

// The length and pattern are spelt out (not only the refinement) so the chart's JSON Schema carries them.
export const prefixSchema = z.string().max(DNS_SUBDOMAIN_MAX, PREFIX_MESSAGE).regex(DNS_SUBDOMAIN, PREFIX_MESSAGE).refine(isValidPrefix, PREFIX_MESSAGE);

/** One chart value, `prefix`, feeds every program: the agents write under it, the aggregator reads it. */
export function prefixSetting(help: string) {
  return setting({ flag: '--prefix <domain>', help, schema: prefixSchema, default: DEFAULT_PREFIX, env: 'VIRTGATE_PREFIX', chart: 'prefix' });
}

export const logLevelSetting = setting({
  flag: '--log-level <level>',
  help: 'fatal | error | warn | info | debug | trace',
  schema: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace']),
  default: 'info',
  env: 'VIRTGATE_LOG_LEVEL',
});

export function portSetting(help: string) {
  return setting({ flag: '--port <port>', help, schema: z.number().int().min(0).max(65_535), parse: port, default: 8080 });
}

// The chart fixes it: a pod listens on all its addresses.
export const bindAddressSetting = setting({ flag: '--bind-address <address>', help: 'HTTP bind address', schema: z.string().min(1), default: '0.0.0.0', chart: false });

/** The in-cluster programs: a ServiceAccount first. */
export const inClusterKubeconfigSetting = setting({
  flag: '--kubeconfig <path>',
  help: 'kubeconfig (default: in-cluster ServiceAccount, then KUBECONFIG)',
  schema: z.string().optional(),
  chart: false,
});

/** The commands run from a workstation or CI: kubectl's order. */
export const clientKubeconfigSetting = setting({
  flag: '--kubeconfig <path>',
  help: 'kubeconfig file (default: KUBECONFIG, then ~/.kube/config, then the in-cluster ServiceAccount, as kubectl)',
  schema: z.string().optional(),
});

export const contextSetting = setting({
  flag: '--context <name>',
  help: 'the kubeconfig context to use (default: its current-context)',
  schema: z.string().optional(),
});

/**
 * One API request's timeout for the programs that list the whole cluster (aggregator, gate,
 * prune): 30 s, so a paged list of thousands of nodes or NodeValidations on a busy API server is
 * not cut off. The agent only reads and writes its own Node and keeps a shorter one.
 */
export function requestTimeoutSetting(defaultText: StringValue) {
  return durationSetting({ flag: '--request-timeout <duration>', help: 'timeout of one API request', default: defaultText, min: '1s', max: '5m' });
}

export const CLUSTER_REQUEST_TIMEOUT = requestTimeoutSetting('30s');

/** `virtgate agent` and `virtgate check` run virt-host-validate under the same limit. */
export const vhvTimeoutSetting = durationSetting({
  flag: '--vhv-timeout <duration>',
  help: 'kill virt-host-validate after this long',
  default: `${DEFAULT_VHV_OPTIONS.timeoutSeconds}s`,
  max: '10m',
  chart: 'agent.virtHostValidate.timeout',
});

export function jsonSetting(help: string) {
  return setting({ flag: '--json', help, schema: z.boolean(), default: false });
}

/**
 * The timings of a program's API watches. Each program picks its own defaults: the aggregator
 * watches the whole cluster and backs off from a shorter first step.
 */
export function watchSettings(defaults: { staleAfter: StringValue; backoffBase: StringValue }) {
  return {
    timeoutSeconds: durationSetting({ flag: '--watch-timeout <duration>', help: 'the API server ends each watch after about this long; a new one starts', default: '5m', min: '10s', max: '1h' }),
    staleAfterSeconds: durationSetting({
      flag: '--watch-stale-after <duration>',
      help: 'restart a watch that delivered nothing, not even a bookmark, for this long',
      default: defaults.staleAfter,
      min: '15s',
      max: '2h',
    }),
    backoffBaseSeconds: durationSetting({ flag: '--watch-backoff-base <duration>', help: 'first wait before reconnecting a failed watch', default: defaults.backoffBase, min: '10ms', max: '1m' }),
    backoffMaxSeconds: durationSetting({ flag: '--watch-backoff-max <duration>', help: 'longest wait between reconnects', default: '30s', min: '1s', max: '10m' }),
  };
}

interface WatchTimingConfig {
  timeoutSeconds: number;
  staleAfterSeconds: number;
  backoffBaseSeconds: number;
  backoffMaxSeconds: number;
}

/** A watch whose server timeout is not below its stale limit would be restarted as dead every time. */
export function checkWatchTiming(watch: WatchTimingConfig, ctx: z.RefinementCtx): void {
  if (watch.staleAfterSeconds <= watch.timeoutSeconds) {
    ctx.addIssue({ code: 'custom', path: ['watch', 'staleAfterSeconds'], message: 'must be longer than --watch-timeout' });
  }
  if (watch.backoffMaxSeconds < watch.backoffBaseSeconds) {
    ctx.addIssue({ code: 'custom', path: ['watch', 'backoffMaxSeconds'], message: 'must not be shorter than --watch-backoff-base' });
  }
}
