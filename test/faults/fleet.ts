/**
 * A small cluster under test: fault nodes on fixture hosts, a real agent process per node, and a
 * real aggregator process, with the checks every API-server fault ends with — the published state
 * and the aggregator match the hosts, readiness recovered, nothing crashed, nothing lost.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { TestControlPlane } from '../lab/controlplane/client.ts';
import type { HostProfile } from '../lab/hosts/build-host.ts';
import type { AgentProcess } from '../lab/processes/launch.ts';
import { allOrThrow } from '../lab/support/all-or-throw.ts';
import { type AggregatorProcess, startAggregatorProcess } from '../lab/processes/launch.ts';
import { childEnv } from './child-env.ts';
import { ConcurrentWriter, writerSurvivors } from './concurrent-writer.ts';
import { type FaultNode, prepareFaultNode, runFaultAgent } from './fault-nodes.ts';
import type { Fault } from './ledger.ts';
import { crashes, pidsOf, type Watched } from './processes.ts';
import { unreadyAgent, unreadyAggregator } from './readiness.ts';
import { settle } from './settle.ts';
import { census } from './survivors.ts';
import { aggregatorMismatches, publishedMismatches, type Truth, truthOf } from './truth.ts';

export interface FleetOptions {
  names: string[];
  profile: HostProfile;
  /** Extra agent flags. */
  agentArgs?: string[];
  /** The kubeconfig each agent uses, when not its own straight to the API server (e.g. through a proxy). */
  agentKubeconfig?: (node: FaultNode) => Promise<string>;
  /** The aggregator's kubeconfig (default: the admin's). */
  aggregatorKubeconfig?: string;
  /** Extra aggregator flags. */
  aggregatorArgs?: string[];
}

export class Fleet {
  readonly nodes: FaultNode[];
  readonly agents: AgentProcess[];
  readonly aggregator: AggregatorProcess;
  private readonly admin: KubeConfig;
  private readonly pids: Array<number | undefined>;
  private writers: ConcurrentWriter[] = [];

  private constructor(admin: KubeConfig, nodes: FaultNode[], agents: AgentProcess[], aggregator: AggregatorProcess) {
    this.admin = admin;
    this.nodes = nodes;
    this.agents = agents;
    this.aggregator = aggregator;
    this.pids = pidsOf(this.watched());
  }

  static async start(admin: KubeConfig, cp: TestControlPlane, options: FleetOptions): Promise<Fleet> {
    const nodes = await allOrThrow(options.names.map((name) => prepareFaultNode(admin, cp, name, options.profile)));
    const started = await Promise.allSettled([
      startAggregatorProcess(['--kubeconfig', options.aggregatorKubeconfig ?? cp.adminKubeconfig, '--request-timeout', '5s', ...(options.aggregatorArgs ?? [])], childEnv()),
      ...nodes.map(async (node) => runFaultAgent(node, options.agentArgs ?? [], options.agentKubeconfig ? await options.agentKubeconfig(node) : node.kubeconfig)),
    ]);
    const failed = started.find((outcome) => outcome.status === 'rejected');
    if (failed) {
      await Promise.all(started.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.stop() : undefined)));
      throw failed.reason;
    }
    const [aggregator, ...agents] = started.map((outcome) => (outcome as PromiseFulfilledResult<AgentProcess | AggregatorProcess>).value);
    return new Fleet(admin, nodes, agents as AgentProcess[], aggregator as AggregatorProcess);
  }

  watched(): Watched[] {
    return [
      ...this.agents.map((agent, index) => ({ label: `agent ${this.nodes[index]?.name}`, child: agent.child, logs: agent.logs, startedMessage: 'virtgate agent started' })),
      { label: 'aggregator', child: this.aggregator.child, logs: this.aggregator.logs, startedMessage: 'virtgate aggregator started' },
    ];
  }

  async truths(): Promise<Map<string, Truth>> {
    return new Map(await Promise.all(this.nodes.map(async (node) => [node.name, await truthOf(node)] as const)));
  }

  /** Everything that does not yet match the hosts: labels, condition, NodeValidation, aggregator. */
  async mismatches(): Promise<string[]> {
    const truths = await this.truths();
    const published = await Promise.all(this.nodes.map((node) => publishedMismatches(this.admin, node, truths.get(node.name) as Truth)));
    return [...published.flat(), ...(await aggregatorMismatches(this.aggregator.url, truths))];
  }

  /** Readiness that has not recovered: agents' and aggregator's /readyz. */
  async unready(): Promise<string[]> {
    const agents = await Promise.all(this.agents.map((agent, index) => unreadyAgent(agent, `agent ${this.nodes[index]?.name}`)));
    return [...agents.flat(), ...(await unreadyAggregator(this.aggregator))];
  }

  /**
   * The end of every API fault: waits (timed, for the summary) until the published state and the
   * aggregator match the hosts, then until readiness recovered; records survivors in `fault` and
   * returns what crashed and what was lost, for the test to assert empty.
   */
  async recover(fault: Fault, timeoutMs = 120_000): Promise<{ crashed: string[]; lost: string[] }> {
    let notConverged: unknown;
    try {
      await fault.converge(() => settle('the published state and the aggregator to match the hosts', () => this.mismatches(), timeoutMs));
      await settle('readiness to recover', () => this.unready(), timeoutMs);
    } catch (error) {
      notConverged = error;
    }
    // The census runs whether or not the fleet converged: a fault that never recovers is still
    // counted (the ledger marks it not recovered and the summary fails the run).
    const outcomes = await Promise.all(this.writers.map((writer) => writer.stop()));
    this.writers = [];
    const counted = await census(
      this.admin,
      this.nodes.map((node, index) => {
        const writer = outcomes[index] ? writerSurvivors(outcomes[index]) : undefined;
        return {
          name: node.name,
          labels: { ...node.foreignLabels, ...writer?.labels },
          taints: [...node.foreignTaints, ...(writer?.taints ?? [])],
          annotations: writer?.annotations ?? {},
          absentLabels: writer?.absentLabels ?? [],
          absentAnnotations: writer?.absentAnnotations ?? [],
          report: true,
        };
      }),
    );
    fault.objects(counted.checked, counted.lost.length);
    if (outcomes.length > 0) fault.detail(`foreign writers: ${outcomes.map((outcome) => `${outcome.writes} writes`).join(', ')}`);
    if (notConverged !== undefined) throw notConverged;
    return { crashed: crashes(this.watched(), this.pids), lost: counted.lost };
  }

  /**
   * Another controller at work on the same nodes during the fault: one writer per node adds,
   * changes and removes its own labels, annotations and taints until `recover` stops it and
   * checks that every last write of it stands.
   */
  startForeignWriters(): void {
    this.writers = this.nodes.map((node) => new ConcurrentWriter(this.admin, node.name));
    for (const writer of this.writers) writer.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.writers.map((writer) => writer.stop().catch(() => undefined)));
    await Promise.all([...this.agents.map((agent) => agent.stop()), this.aggregator.stop()]);
  }
}
