import type { V1Node } from '@kubernetes/client-node';
import type { NodeKeys } from '../../core/kube/names.ts';
import type { TaintConfig } from '../config.ts';
import { guardAllows, type PoolNode } from '../desired/taint.ts';
import type { NodeApi } from '../node-api.ts';

export type GuardAnswer = { allowed: true } | { allowed: false; reason: string };

/**
 * The share guard's reads: whether this node is in the taint pool, and how many pool nodes carry
 * the taint. The decision itself is pure (`guardAllows`).
 */
export class TaintGuard {
  private readonly api: NodeApi;
  private readonly keys: NodeKeys;
  private readonly config: TaintConfig;

  constructor(api: NodeApi, keys: NodeKeys, config: TaintConfig) {
    this.api = api;
    this.keys = keys;
    this.config = config;
  }

  /** Before tainting: is this node in the pool, and would its taint stay within the share? */
  async mayTaint(node: V1Node): Promise<GuardAnswer> {
    const outside = { allowed: false, reason: 'this node is outside the taint pool selector' } as const;
    if (!(await this.api.nodeMatches(this.config.poolSelector, node, this.keys.prefix))) return outside;
    const pool = await this.pool();
    if (!pool.some((member) => member.name === node.metadata?.name)) return outside;
    return this.decide(pool, node);
  }

  /** After tainting, look again: nodes that failed at the same moment may together exceed the share. */
  async mayKeepTaint(node: V1Node): Promise<GuardAnswer> {
    return this.decide(await this.pool(), node);
  }

  private decide(pool: PoolNode[], node: V1Node): GuardAnswer {
    const guard = guardAllows(pool, node.metadata?.name ?? '', this.config.maxShare);
    return guard.allowed ? { allowed: true } : { allowed: false, reason: guard.reason };
  }

  private async pool(): Promise<PoolNode[]> {
    const nodes = await this.api.listNodes(this.config.poolSelector);
    return nodes.map((n) => {
      const taint = n.spec?.taints?.find((t) => t.key === this.keys.notReadyTaint);
      return {
        name: n.metadata?.name ?? '',
        ...(taint ? { taintedAt: taint.timeAdded ? new Date(taint.timeAdded) : new Date(0) } : {}),
      };
    });
  }
}
