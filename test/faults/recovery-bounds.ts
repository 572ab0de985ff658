/**
 * How long each cluster fault may take to recover, computed from the settings the fault tests
 * run with (never from a measurement): the ledger asserts every time to recover against its
 * fault's bound, and a slower recovery fails the run. Each bound is a sum of the waits the
 * design allows, written as a formula the summary prints beside the number.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { AGGREGATOR_DEFAULTS } from '../../aggregator/config.ts';
import { PACKAGE_ROOT } from '../../core/package-info.ts';
import { durationSeconds } from '../../core/settings/parsers.ts';
import { CONFLICT_RETRY } from '../../core/kube/retry.ts';
import { FAULT_AGENT_SETTINGS } from './fault-nodes.ts';

export interface RecoveryBound {
  ms: number;
  /** The formula with the settings' values, e.g. `interval 10 s × (1 + jitter 0) + 2 × request timeout 5 s = 20 s`. */
  formula: string;
}

/** The aggregator's request timeout in the fleet (fleet.ts passes it). */
export const FLEET_AGGREGATOR_REQUEST_TIMEOUT_SECONDS = 5;

/** How often the tests poll for convergence (settle's default interval). */
export const SETTLE_POLL_SECONDS = 0.5;

interface Term {
  name: string;
  seconds: number;
}

const s = (seconds: number) => `${Number(seconds.toFixed(2))} s`;

function sum(terms: Term[]): RecoveryBound {
  const seconds = terms.reduce((total, term) => total + term.seconds, 0);
  return { ms: Math.round(seconds * 1000), formula: `${terms.map((term) => term.name).join(' + ')} = ${s(seconds)}` };
}

export interface AgentTiming {
  intervalSeconds: number;
  jitter: number;
  requestTimeoutSeconds: number;
}

const agentDefaults: AgentTiming = FAULT_AGENT_SETTINGS;

/**
 * The agent's next publish: the next probe publishes whatever the retry timer says (at most
 * interval × (1 + jitter) away); a publish caught in flight as the fault ends may take one request
 * timeout to fail, and the publish that lands one more.
 */
function agentPublishTerms(agent: AgentTiming): Term[] {
  return [
    { name: `interval ${s(agent.intervalSeconds)} × (1 + jitter ${agent.jitter})`, seconds: agent.intervalSeconds * (1 + agent.jitter) },
    { name: `2 × agent request timeout ${s(agent.requestTimeoutSeconds)}`, seconds: 2 * agent.requestTimeoutSeconds },
  ];
}

const poll = (seconds = SETTLE_POLL_SECONDS): Term => ({ name: `poll ${s(seconds)}`, seconds });

/** One agent publishing again after an API fault (or a host change), seen by polling the API. */
export function agentRecoveryBound(agent: Partial<AgentTiming> = {}, pollSeconds = SETTLE_POLL_SECONDS): RecoveryBound {
  return sum([...agentPublishTerms({ ...agentDefaults, ...agent }), poll(pollSeconds)]);
}

/**
 * A host fault under the agent: seen at the next probe (interval × (1 + jitter)), which waits for
 * virt-host-validate up to its timeout when it runs, then published (two request timeouts).
 */
export function hostChangeBound(options: { vhvTimeoutSeconds?: number; pollSeconds?: number } = {}): RecoveryBound {
  const vhv = options.vhvTimeoutSeconds === undefined ? [] : [{ name: `virt-host-validate timeout ${s(options.vhvTimeoutSeconds)}`, seconds: options.vhvTimeoutSeconds }];
  return sum([...agentPublishTerms(agentDefaults), ...vhv, poll(options.pollSeconds)]);
}

/**
 * A fleet (agents and the aggregator) after an API fault: the agents publish again (above) while
 * the aggregator's watches reconnect, at most one backoff cap (--watch-backoff-max) away, and
 * relist within one request timeout; the slower of the two, then a poll.
 */
export function fleetRecoveryBound(options: { agentRequestTimeoutSeconds?: number; aggregatorRequestTimeoutSeconds?: number } = {}): RecoveryBound {
  const agent = agentPublishTerms({ ...agentDefaults, ...(options.agentRequestTimeoutSeconds ? { requestTimeoutSeconds: options.agentRequestTimeoutSeconds } : {}) });
  const aggregatorTimeout = options.aggregatorRequestTimeoutSeconds ?? FLEET_AGGREGATOR_REQUEST_TIMEOUT_SECONDS;
  const aggregator: Term[] = [
    { name: `aggregator watch backoff cap ${s(AGGREGATOR_DEFAULTS.watch.backoffMaxSeconds)}`, seconds: AGGREGATOR_DEFAULTS.watch.backoffMaxSeconds },
    { name: `aggregator request timeout ${s(aggregatorTimeout)}`, seconds: aggregatorTimeout },
  ];
  const total = (terms: Term[]) => terms.reduce((sum, term) => sum + term.seconds, 0);
  const slower = Math.max(total(agent), total(aggregator));
  const seconds = slower + SETTLE_POLL_SECONDS;
  const group = (terms: Term[]) => `(${terms.map((term) => term.name).join(' + ')})`;
  return { ms: Math.round(seconds * 1000), formula: `max(agent ${group(agent)}, ${group(aggregator)}) + poll ${s(SETTLE_POLL_SECONDS)} = ${s(seconds)}` };
}

/** After a 429 pause: the agent waits out the longest Retry-After the server gave (honoured by design), then publishes. */
export function throttledRecoveryBound(maxRetryAfterSeconds: number): RecoveryBound {
  return sum([{ name: `longest Retry-After ${s(maxRetryAfterSeconds)}`, seconds: maxRetryAfterSeconds }, ...agentPublishTerms(agentDefaults), poll()]);
}

/** The longest the agent's 409 loop can wait in all: each retry at most min(cap, 2 × base × 2^i). */
export function conflictRetrySeconds(): number {
  let total = 0;
  for (let retry = 0; retry < CONFLICT_RETRY.retries; retry += 1) total += Math.min(CONFLICT_RETRY.maxTimeout, 2 * CONFLICT_RETRY.minTimeout * 2 ** retry);
  return total / 1000;
}

/**
 * A verdict change published under a concurrent writer: the change is seen at the next probe;
 * if every attempt of that publish meets a 409 (its whole conflict-retry budget), the probe after
 * it tries again. Two intervals, the conflict budget, and the publish's request timeouts.
 */
export function underConflictsBound(pollSeconds: number): RecoveryBound {
  const interval = agentDefaults.intervalSeconds * (1 + agentDefaults.jitter);
  return sum([
    { name: `2 × interval ${s(agentDefaults.intervalSeconds)} × (1 + jitter ${agentDefaults.jitter})`, seconds: 2 * interval },
    { name: `409 retry budget ${s(conflictRetrySeconds())} (${CONFLICT_RETRY.retries} retries, ${CONFLICT_RETRY.minTimeout}–${CONFLICT_RETRY.maxTimeout} ms)`, seconds: conflictRetrySeconds() },
    { name: `2 × agent request timeout ${s(agentDefaults.requestTimeoutSeconds)}`, seconds: 2 * agentDefaults.requestTimeoutSeconds },
    poll(pollSeconds),
  ]);
}

/**
 * One conflict under a concurrent writer, from the write that made the agent's patch stale: the
 * agent re-reads and retries within its 409 budget; if every retry meets another write, the next
 * probe publishes again (interval × (1 + jitter) away), the publish that lands taking up to two
 * request timeouts.
 */
export function afterConflictBound(pollSeconds: number): RecoveryBound {
  return sum([
    { name: `409 retry budget ${s(conflictRetrySeconds())} (${CONFLICT_RETRY.retries} retries, ${CONFLICT_RETRY.minTimeout}–${CONFLICT_RETRY.maxTimeout} ms)`, seconds: conflictRetrySeconds() },
    ...agentPublishTerms(agentDefaults),
    poll(pollSeconds),
  ]);
}

/** The chart's defaults the real node runs with: values.yaml, and the DaemonSet's fixed grace period. */
function chartAgentTiming(): { readinessPeriodSeconds: number; vhvTimeoutSeconds: number; requestTimeoutSeconds: number; shutdownGraceSeconds: number } {
  const values = parseYaml(readFileSync(path.join(PACKAGE_ROOT, 'charts/virtgate/values.yaml'), 'utf8')) as {
    agent: { readinessProbe: { periodSeconds: number }; virtHostValidate: { timeout: string }; requestTimeout: string; shutdownGrace: string };
  };
  return {
    readinessPeriodSeconds: values.agent.readinessProbe.periodSeconds,
    vhvTimeoutSeconds: durationSeconds(values.agent.virtHostValidate.timeout),
    requestTimeoutSeconds: durationSeconds(values.agent.requestTimeout),
    shutdownGraceSeconds: durationSeconds(values.agent.shutdownGrace),
  };
}

/** The kubelet's default nodeStatusUpdateFrequency (the lab's kubelet config leaves it). */
const KUBELET_NODE_STATUS_SECONDS = 10;

/**
 * The agent pod deleted: the old agent stops within its shutdown grace, the DaemonSet's new pod
 * starts, its first probe waits for virt-host-validate up to its timeout and publishes (two request
 * timeouts), and it turns Ready at the next readiness probe.
 */
export function nodeAgentReplacedBound(): RecoveryBound {
  const chart = chartAgentTiming();
  return sum([
    { name: `shutdown grace ${s(chart.shutdownGraceSeconds)}`, seconds: chart.shutdownGraceSeconds },
    { name: `virt-host-validate timeout ${s(chart.vhvTimeoutSeconds)}`, seconds: chart.vhvTimeoutSeconds },
    { name: `2 × agent request timeout ${s(chart.requestTimeoutSeconds)}`, seconds: 2 * chart.requestTimeoutSeconds },
    { name: `readiness period ${s(chart.readinessPeriodSeconds)}`, seconds: chart.readinessPeriodSeconds },
    poll(0.25),
  ]);
}

/**
 * The kubelet started again: it posts the node status within one update period, re-probes the
 * agent's readiness within one period, and the agent (which never stopped) answers within two
 * request timeouts.
 */
export function nodeKubeletRestartBound(): RecoveryBound {
  const chart = chartAgentTiming();
  return sum([
    { name: `kubelet node status period ${s(KUBELET_NODE_STATUS_SECONDS)}`, seconds: KUBELET_NODE_STATUS_SECONDS },
    { name: `readiness period ${s(chart.readinessPeriodSeconds)}`, seconds: chart.readinessPeriodSeconds },
    { name: `2 × agent request timeout ${s(chart.requestTimeoutSeconds)}`, seconds: 2 * chart.requestTimeoutSeconds },
    poll(0.25),
  ]);
}
