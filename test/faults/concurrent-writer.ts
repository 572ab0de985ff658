/**
 * Someone else writing the same Node as fast as it can, the ways real controllers and people do:
 * label merge patches without a resourceVersion, label and taint read-modify-writes that carry
 * one (and so meet 409s themselves), taint appends by JSON Patch (no resourceVersion, never a
 * lost update), and annotations and labels set and removed again. It remembers every write that
 * succeeded — what must be there and what must stay gone — so the test can check none was undone.
 *
 * It keeps writing through API faults: a write that gets no answer or a server error (5xx, 429)
 * may or may not have landed, so its key is `uncertain` and not judged until a later write to the
 * same key succeeds; after such a failure it pauses briefly instead of spinning.
 */
import { CoreV1Api, type KubeConfig, PatchStrategy, setHeaderOptions, type V1Taint } from '@kubernetes/client-node';
import { statusOf } from '../lab/support/wait.ts';

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
  /** The last value written successfully per annotation key. */
  annotations: Record<string, string>;
  /** Label and annotation keys whose last successful write removed them: they must stay absent. */
  removedLabels: Set<string>;
  removedAnnotations: Set<string>;
  /** Keys whose last write had an unknown outcome (no answer, 5xx, 429): not checked. */
  uncertain: Set<string>;
}

const PAUSE_AFTER_FAILURE_MS = 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class ConcurrentWriter {
  private readonly core: CoreV1Api;
  private readonly node: string;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private readonly outcome: WriterOutcome = {
    writes: 0,
    conflicts: 0,
    labels: {},
    taints: [],
    annotations: {},
    removedLabels: new Set(),
    removedAnnotations: new Set(),
    uncertain: new Set(),
  };

  /** Appended taint keys carry it, so a later writer on the same Node never appends a key that is already there. */
  private readonly generation = (Date.now() % 1_000_000).toString(36);

  /** Writes made by `interpose`, so each sets a new value. */
  private interposed = 0;

  private readonly kinds: number;
  /** The time between the starts of two writes (0: as fast as the API server answers). */
  private readonly periodMs: number;

  /**
   * `churnOnly`: only the label and taint writes that always change the Node (its resourceVersion
   * moves on every one), for a test that wants as many conflicts as it can get; otherwise
   * annotations and removals too. `writesPerSecond`: one fixed rate for the writer's whole life
   * (a write that runs late starts the next at once, without a burst to catch up); unset, as
   * fast as the API server answers.
   */
  constructor(admin: KubeConfig, node: string, options: { churnOnly?: boolean; writesPerSecond?: number } = {}) {
    this.core = admin.makeApiClient(CoreV1Api);
    this.node = node;
    this.kinds = options.churnOnly ? 4 : 6;
    this.periodMs = options.writesPerSecond ? 1000 / options.writesPerSecond : 0;
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
    let nextAt = Date.now();
    for (let step = 0; !this.stopped; step += 1) {
      const kind = step % this.kinds;
      try {
        if (kind === 0) await this.labelWithoutVersion(step);
        else if (kind === 1) await this.labelWithVersion(step);
        else if (kind === 2) await this.taintWithVersion(step);
        else if (kind === 3) await this.appendTaint(step);
        else if (kind === 4) await this.annotation(step);
        else await this.removeLabel(step);
      } catch (error) {
        // A read before a read-modify-write failed (the API server is down): nothing was written.
        if (statusOf(error) === undefined || (statusOf(error) ?? 0) >= 429) await sleep(PAUSE_AFTER_FAILURE_MS);
        else throw error;
      }
      if (this.periodMs > 0) {
        nextAt = Math.max(nextAt + this.periodMs, Date.now());
        await sleep(nextAt - Date.now());
      }
    }
  }

  /**
   * One label write outside the loop's rhythm, at the moment the caller chooses (conflicts.test.ts:
   * between the agent's read and its patch). It always changes the Node, so the resourceVersion
   * moves. Whether it landed.
   */
  async interpose(): Promise<boolean> {
    const key = `${PREFIX}/interposed`;
    const value = `v${(this.interposed += 1)}`;
    let landed = false;
    await this.attempt(key, () => this.core.patchNode({ name: this.node, body: { metadata: { labels: { [key]: value } } } }, mergePatch), () => {
      this.outcome.labels[key] = value;
      this.outcome.removedLabels.delete(key);
      landed = true;
    });
    return landed;
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
      if (status === 409) {
        this.outcome.conflicts += 1;
        return;
      }
      if (status === undefined || status === 429 || status >= 500) {
        this.outcome.uncertain.add(key);
        await sleep(PAUSE_AFTER_FAILURE_MS);
        return;
      }
      throw error;
    }
  }

  /** Sets one of a few annotations, or removes it again (merge patch with null). */
  private async annotation(step: number): Promise<void> {
    const key = `${PREFIX}/note-${step % 2}`;
    const remove = step % 4 === 0;
    const value = remove ? null : `v${step}`;
    await this.attempt(`annotation:${key}`, () => this.core.patchNode({ name: this.node, body: { metadata: { annotations: { [key]: value } } } }, mergePatch), () => {
      if (value === null) {
        delete this.outcome.annotations[key];
        this.outcome.removedAnnotations.add(key);
      } else {
        this.outcome.annotations[key] = value;
        this.outcome.removedAnnotations.delete(key);
      }
    });
  }

  /** Removes one of the plain labels again (merge patch with null), so absence is tested too. */
  private async removeLabel(step: number): Promise<void> {
    const key = `${PREFIX}/plain-${step % 3}`;
    await this.attempt(key, () => this.core.patchNode({ name: this.node, body: { metadata: { labels: { [key]: null } } } }, mergePatch), () => {
      delete this.outcome.labels[key];
      this.outcome.removedLabels.add(key);
    });
  }

  private async labelWithoutVersion(step: number): Promise<void> {
    const key = `${PREFIX}/plain-${step % 3}`;
    const value = `v${step}`;
    await this.attempt(key, () => this.core.patchNode({ name: this.node, body: { metadata: { labels: { [key]: value } } } }, mergePatch), () => {
      this.outcome.labels[key] = value;
      this.outcome.removedLabels.delete(key);
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
    const taint: V1Taint = { key: `${PREFIX}/a${this.generation}-${step}`, value: 'x', effect: 'PreferNoSchedule' };
    await this.attempt(taint.key, () => this.core.patchNode({ name: this.node, body: [{ op: 'add', path: '/spec/taints/-', value: taint }] }, jsonPatch), () => {
      this.outcome.taints.push(taint);
    });
  }
}

/** What must have survived of a writer's work: its last certain writes, present or removed. */
export function writerSurvivors(outcome: WriterOutcome): {
  labels: Record<string, string>;
  taints: V1Taint[];
  annotations: Record<string, string>;
  absentLabels: string[];
  absentAnnotations: string[];
} {
  const certain = (key: string) => !outcome.uncertain.has(key);
  return {
    labels: Object.fromEntries(Object.entries(outcome.labels).filter(([key]) => certain(key))),
    taints: outcome.taints.filter((taint) => certain(taint.key)),
    annotations: Object.fromEntries(Object.entries(outcome.annotations).filter(([key]) => certain(`annotation:${key}`))),
    absentLabels: [...outcome.removedLabels].filter(certain),
    absentAnnotations: [...outcome.removedAnnotations].filter((key) => certain(`annotation:${key}`)),
  };
}
