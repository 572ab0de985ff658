import type { KubeConfig } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { DEFAULT_WATCH_TIMING, INACTIVITY_BACKSTOP_MS } from '../../core/kube/watch-loop.ts';
import type { NodeModel } from '../model/node.ts';
import type { ReportParse } from '../../core/report/read.ts';
import type { CustomResourceObservation, ParsedSnapshot } from '../model/snapshot.ts';
import { keepNode, keepReport } from './keep.ts';
import { type CrdInfo, crdObservation, projectCrd } from './project.ts';
import { Reflector, type ReflectorStatus, type ReflectorTiming } from './reflector.ts';
import { projectVmi } from '../model/vmi.ts';
import { apiClients, CDI, type ClientOptions, type CustomResource, KUBEVIRT, type ResourceClient, VMIS, type WatchClients } from './resources.ts';
import { ServerVersion, type ServerVersionStatus } from './server-version.ts';

export interface SyncStatus {
  /** Every watched kind has completed its first LIST, and the server version is known. */
  synced: boolean;
  /** Synced, and no watch is broken now. */
  healthy: boolean;
  /** One line: why not ready, or that all is well (for /readyz and the page). */
  reason: string;
  serverVersion: ServerVersionStatus;
  watches: ReflectorStatus[];
}

export interface ClusterWatchOptions {
  kc: KubeConfig;
  log: Logger;
  requestTimeoutMs: number;
  timing?: Partial<ReflectorTiming>;
  /** Something the gate reads changed. */
  onChange: () => void;
  /** Sync or health changed. */
  onStatus?: () => void;
  /** The API clients; by default made from `kc` (the bench passes synthetic ones). */
  clients?: WatchClients;
}

type Optional = 'kubevirt' | 'cdi' | 'vmis';
const OPTIONAL: Record<Optional, CustomResource> = { kubevirt: KUBEVIRT, cdi: CDI, vmis: VMIS };
/** What is kept of each object: KubeVirt and CDI whole (one or two objects), VMIs as a small projection (there may be thousands). */
const PROJECT: Record<Optional, (raw: unknown) => unknown> = { kubevirt: (raw) => raw, cdi: (raw) => raw, vmis: projectVmi };

/**
 * Everything the gate reads, kept current: Nodes, NodeValidations, and — while their CRDs exist —
 * KubeVirt and CDI objects. The two CRDs are watched by name, so KubeVirt or CDI installed (or
 * removed) later is noticed without polling; their objects' informers start and stop with them.
 */
export class ClusterWatch {
  private readonly kc: KubeConfig;
  private readonly log: Logger;
  private readonly timing: Partial<ReflectorTiming> | undefined;
  private readonly onChange: () => void;
  private readonly onStatus: () => void;
  private readonly stopping = new AbortController();
  private readonly clients: WatchClients;
  private readonly nodes: Reflector<NodeModel | null>;
  private readonly reports: Reflector<ReportParse>;
  private readonly crds: Record<Optional, Reflector<CrdInfo | null>>;
  private readonly objects: Partial<Record<Optional, Reflector<unknown>>> = {};
  private readonly version: ServerVersion;
  private started = false;

  constructor(options: ClusterWatchOptions) {
    this.kc = options.kc;
    this.log = options.log;
    this.timing = options.timing;
    this.onChange = options.onChange;
    this.onStatus = options.onStatus ?? (() => undefined);
    const staleAfterMs = options.timing?.staleAfterMs ?? DEFAULT_WATCH_TIMING.staleAfterMs;
    const clientOptions: ClientOptions = { requestTimeoutMs: options.requestTimeoutMs, watchInactivityMs: staleAfterMs + INACTIVITY_BACKSTOP_MS, signal: this.stopping.signal };
    this.clients = options.clients ?? apiClients(this.kc, clientOptions);
    this.nodes = this.reflector('nodes', this.clients.nodes, keepNode, this.onChange);
    this.reports = this.reflector('nodevalidations', this.clients.nodeValidations, keepReport, this.onChange);
    this.crds = {
      kubevirt: this.reflector(`crd/${KUBEVIRT.crd}`, this.clients.crd(KUBEVIRT.crd), projectCrd, () => this.crdChanged('kubevirt')),
      cdi: this.reflector(`crd/${CDI.crd}`, this.clients.crd(CDI.crd), projectCrd, () => this.crdChanged('cdi')),
      vmis: this.reflector(`crd/${VMIS.crd}`, this.clients.crd(VMIS.crd), projectCrd, () => this.crdChanged('vmis')),
    };
    this.version = new ServerVersion(this.kc, {
      log: this.log,
      requestTimeoutMs: options.requestTimeoutMs,
      signal: this.stopping.signal,
      ...(options.timing?.backoff ? { backoff: options.timing.backoff } : {}),
      onChange: () => {
        this.onChange();
        this.onStatus();
      },
    });
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    void this.version.refresh();
    for (const reflector of [this.nodes, this.reports, ...Object.values(this.crds)]) reflector.start();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    this.version.stop();
    await Promise.all([this.nodes, this.reports, ...Object.values(this.crds), ...Object.values(this.objects)].map((reflector) => reflector.stop()));
  }

  /** The current objects, already narrowed, for the gate. Cheap: the models are shared, not copied. */
  parsed(): ParsedSnapshot {
    return {
      serverGitVersion: this.version.status().gitVersion,
      nodes: this.nodes.items(),
      reports: this.reports.items(),
      kubevirt: this.observe('kubevirt'),
      cdi: this.observe('cdi'),
      vmis: this.observe('vmis'),
    };
  }

  status(): SyncStatus {
    const watches = this.reflectors().map((reflector) => reflector.status());
    const serverVersion = this.version.status();
    const unsynced = watches.filter((watch) => !watch.synced).map((watch) => watch.kind);
    const broken = watches.filter((watch) => watch.synced && !watch.healthy);
    const synced = unsynced.length === 0 && serverVersion.gitVersion !== null;
    const healthy = synced && broken.length === 0;
    let reason = 'in sync with the API server';
    if (broken.length > 0) reason = `watch broken: ${broken.map((watch) => `${watch.kind} (${watch.error ?? 'error'})`).join(', ')}`;
    else if (unsynced.length > 0) {
      const error = watches.find((watch) => !watch.synced && watch.error !== null)?.error;
      reason = `not synced yet: ${unsynced.join(', ')}${error ? `; last error: ${error}` : ''}`;
    }
    else if (serverVersion.gitVersion === null) reason = `not synced yet: the API server version (${serverVersion.error ?? 'reading'})`;
    return { synced, healthy, reason, serverVersion, watches };
  }

  private reflectors(): Array<Reflector<unknown>> {
    return [this.nodes, this.reports, ...Object.values(this.crds), ...Object.values(this.objects)];
  }

  private reflector<T>(kind: string, client: ResourceClient, project: (raw: unknown) => T, onChange: () => void): Reflector<T> {
    return new Reflector<T>({
      kind,
      client,
      project,
      log: this.log,
      ...(this.timing ? { timing: this.timing } : {}),
      onChange,
      onHealth: (_healthy, recovered) => {
        // A watch that recovers may be talking to a restarted, perhaps upgraded, API server.
        if (recovered) void this.version.refresh();
        this.onStatus();
      },
    });
  }

  private crd(which: Optional): CrdInfo | null {
    return this.crds[which].items()[0] ?? null;
  }

  /** Whether the CRD serves the version we read: then its objects are watched. */
  private serving(which: Optional): boolean {
    const info = this.crd(which);
    return info !== null && info.established && info.served.includes(OPTIONAL[which].version);
  }

  private crdChanged(which: Optional): void {
    const resource = OPTIONAL[which];
    const existing = this.objects[which];
    if (this.serving(which) && !existing && !this.stopping.signal.aborted) {
      this.log.info({ decision: 'watch-start', resource: resource.crd }, `${resource.crd} is served; watching its objects`);
      const reflector = this.reflector(resource.plural, this.clients.customResource(resource), PROJECT[which], this.onChange);
      this.objects[which] = reflector;
      reflector.start();
    } else if (!this.serving(which) && existing) {
      this.log.info({ decision: 'watch-stop', resource: resource.crd }, `${resource.crd} is gone; no longer watching its objects`);
      delete this.objects[which];
      void existing.stop();
    }
    this.onChange();
    this.onStatus();
  }

  private observe(which: Optional): CustomResourceObservation {
    const resource = OPTIONAL[which];
    if (!this.crds[which].status().synced) return { state: 'unknown', reason: `not synced yet (watching CRD ${resource.crd})` };
    const notListable = crdObservation(resource.crd, resource.group, resource.version, this.crd(which));
    if (notListable !== null) return notListable;
    const objects = this.objects[which];
    if (!objects || !objects.status().synced) return { state: 'unknown', reason: `not synced yet (listing ${resource.plural})` };
    return { state: 'listed', items: objects.items() };
  }
}
