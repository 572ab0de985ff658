/**
 * Someone else writing the same Node as fast as it can, the ways real controllers and people do:
 * label merge patches without a resourceVersion, label and taint read-modify-writes that carry
 * one (and so meet 409s themselves), and taint appends by JSON Patch (no resourceVersion, never a
 * lost update). It remembers every write that succeeded, so the test can check none was lost.
 */
import { CoreV1Api, type KubeConfig, PatchStrategy, setHeaderOptions, type V1Taint } from '@kubernetes/client-node';
import { statusOf } from '../support/wait.ts';

const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
const jsonPatch = setHeaderOptions('Content-Type', PatchStrategy.JsonPatch);
const PREFIX = 'writer.example.com';
const RV_TAINT_KEYS = 8;
const MAX_APPENDED = 24;

export interface WriterOutcome {
  writes: number;
  /** 409s the writer itself got (its resourceVersion was stale). */
  conflicts: number;
  /** The last value written successfully per label key. */
  labels: Record<string, string>;
  taints: V1Taint[];
  /** Keys whose last write had an unknown outcome (no answer): not checked. */
  uncertain: Set<string>;
}

export class ConcurrentWriter {
  private readonly core: CoreV1Api;
  private readonly node: string;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private readonly outcome: WriterOutcome = { writes: 0, conflicts: 0, labels: {}, taints: [], uncertain: new Set() };

  constructor(admin: KubeConfig, node: string) {
    this.core = admin.makeApiClient(CoreV1Api);
    this.node = node;
  }

  start(): void {
    this.loop ??= this.run();
  }

  async stop(): Promise<WriterOutcome> {
    this.stopped = true;
    await this.loop;
    return this.outcome;
  }

  private async run(): Promise<void> {
    for (let step = 0; !this.stopped; step += 1) {
      const kind = step % 4;
      if (kind === 0) await this.labelWithoutVersion(step);
      else if (kind === 1) await this.labelWithVersion(step);
      else if (kind === 2) await this.taintWithVersion(step);
      else await this.appendTaint(step);
    }
  }

  /** Runs one write and files its outcome under `key`. */
  private async attempt(key: string, write: () => Promise<unknown>, onSuccess: () => void): Promise<void> {
    try {
      await write();
      this.outcome.writes += 1;
      this.outcome.uncertain.delete(key);
      onSuccess();
    } catch (error) {
      const status = statusOf(error);
      if (status === 409) this.outcome.conflicts += 1;
      else if (status === undefined) this.outcome.uncertain.add(key);
      else throw error;
    }
  }

  private async labelWithoutVersion(step: number): Promise<void> {
    const key = `${PREFIX}/plain-${step % 3}`;
    const value = `v${step}`;
    await this.attempt(key, () => this.core.patchNode({ name: this.node, body: { metadata: { labels: { [key]: value } } } }, mergePatch), () => {
      this.outcome.labels[key] = value;
    });
  }

  private async labelWithVersion(step: number): Promise<void> {
    const key = `${PREFIX}/versioned`;
    const value = `v${step}`;
    const current = await this.core.readNode({ name: this.node });
    const body = { metadata: { resourceVersion: current.metadata?.resourceVersion, labels: { [key]: value } } };
    await this.attempt(key, () => this.core.patchNode({ name: this.node, body }, mergePatch), () => {
      this.outcome.labels[key] = value;
    });
  }

  /** Adds or changes one of a few taints: a read-modify-write of the whole list, guarded by resourceVersion. */
  private async taintWithVersion(step: number): Promise<void> {
    const key = `${PREFIX}/t${step % RV_TAINT_KEYS}`;
    const taint: V1Taint = { key, value: `v${step}`, effect: 'NoSchedule' };
    const current = await this.core.readNode({ name: this.node });
    const taints = [...(current.spec?.taints ?? []).filter((t) => t.key !== key), taint];
    const body = { metadata: { resourceVersion: current.metadata?.resourceVersion }, spec: { taints } };
    await this.attempt(key, () => this.core.patchNode({ name: this.node, body }, mergePatch), () => {
      this.outcome.taints = [...this.outcome.taints.filter((t) => t.key !== key), taint];
    });
  }

  /** Appends a new taint with JSON Patch: applied to the current object, no resourceVersion needed. */
  private async appendTaint(step: number): Promise<void> {
    const appended = this.outcome.taints.filter((t) => t.key.startsWith(`${PREFIX}/a`)).length;
    if (appended >= MAX_APPENDED) {
      await this.labelWithoutVersion(step);
      return;
    }
    const taint: V1Taint = { key: `${PREFIX}/a${step}`, value: 'x', effect: 'PreferNoSchedule' };
    await this.attempt(taint.key, () => this.core.patchNode({ name: this.node, body: [{ op: 'add', path: '/spec/taints/-', value: taint }] }, jsonPatch), () => {
      this.outcome.taints.push(taint);
    });
  }
}
