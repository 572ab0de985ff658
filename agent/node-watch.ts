import type { KubeConfig, V1Node } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { watchPath } from '../core/kube/watch.ts';
import { INACTIVITY_BACKSTOP_MS, WatchLoop, type WatchTiming } from '../core/kube/watch-loop.ts';

/**
 * The agent's watch timings: the shared loop's, with a longer staleness limit (one quiet Node
 * sends little besides bookmarks) and reconnects backing off from 1 s.
 */
export const DEFAULT_NODE_WATCH_TIMING: WatchTiming = {
  watchTimeoutSeconds: 300,
  jitter: 0.2,
  staleAfterMs: 360_000,
  backoff: { baseMs: 1000, maxMs: 30_000 },
};

/**
 * Watches only this agent's own Node (field selector), so it can re-apply at once when someone
 * removes an owned label or taint. It has no LIST: each (re)connect starts without a
 * resourceVersion, so the server sends the current object first and nothing missed while
 * disconnected goes unnoticed. Reconnects, backoff and staleness: core/kube/watch-loop.ts.
 */
export class NodeWatch {
  private readonly loop: WatchLoop;

  constructor(kc: KubeConfig, nodeName: string, onNode: (node: V1Node) => void, log: Logger, timing: Partial<WatchTiming> = {}) {
    const { staleAfterMs } = { ...DEFAULT_NODE_WATCH_TIMING, ...timing };
    this.loop = new WatchLoop({
      open: watchPath(kc, '/api/v1/nodes', { inactivityMs: staleAfterMs + INACTIVITY_BACKSTOP_MS, query: { fieldSelector: `metadata.name=${nodeName}` } }),
      onEvent: (type, object) => {
        if (type === 'ADDED' || type === 'MODIFIED') onNode(object as V1Node);
      },
      log: log.child({ watch: 'own-node' }),
      timing: { ...DEFAULT_NODE_WATCH_TIMING, ...timing },
    });
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
