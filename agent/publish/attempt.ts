import type { V1Node } from '@kubernetes/client-node';
import type { HeartbeatDue } from '../heartbeat.ts';
import type { NodeApi } from '../node-api.ts';
import { decide } from './decision.ts';
import type { Exporter } from './exporter.ts';
import { type Plan, plan, type PlanSettings } from './plan.ts';
import type { ProbeOutcome } from './probe-outcome.ts';
import { type PublishRead, readNodeAndReport, readPool } from './read.ts';

/** Planning from the tainted Node can only keep the taint or give it back: two rounds at most. */
const MAX_NODE_ROUNDS = 2;

/**
 * One publish attempt: read the Node and its report, decide what the probe outcome means for it,
 * read the taint pool when the decision wants the taint, plan, and write the Node object. Once the
 * taint is written and visible the pool is read again and the Node planned again: nodes that failed
 * at the same moment may together exceed the share, and the latest-tainted give it back. A 409 from
 * a Node write ends the attempt; the publisher starts another from the read.
 */
export async function decideAndWriteNode(
  api: NodeApi,
  nodeObject: Exporter<V1Node | undefined>,
  settings: PlanSettings,
  outcome: ProbeOutcome,
  heartbeat: HeartbeatDue,
  now: Date,
): Promise<Plan> {
  const { node, report } = await readNodeAndReport(api);
  const decision = decide(outcome, node, settings);
  let read: PublishRead = { node, report, pool: decision.wantsTaint ? await readPool(api, settings, node) : undefined };
  for (let round = 1; ; round += 1) {
    const decided = plan(decision, read, settings, heartbeat, now);
    const written = await nodeObject.apply(decided);
    if (!written || !decided.addsTaint || round === MAX_NODE_ROUNDS) return decided;
    read = { node: written, report, pool: await readPool(api, settings, written) };
  }
}
