import { type KubeConfig, Watch } from '@kubernetes/client-node';
import type { OpenWatch } from './watch-loop.ts';

/**
 * A WATCH on `path` (e.g. /api/v1/nodes) through client-node, in the shape the watch loop opens
 * (watch-loop.ts), with fixed query parameters such as a field selector and with bookmarks.
 * `inactivityMs` is client-node's own limit on a silent stream: it aborts a watch after 30 s
 * without data by default, but the API server sends bookmarks only about once a minute, so a
 * quiet watch would be re-opened every 30 s. The loop's staleness timer is the real limit; pass
 * something above it here. (The field is private in client-node's typings, hence Object.assign.)
 */
export function watchPath(kc: KubeConfig, path: string, options: { inactivityMs: number; query?: Record<string, string> }): OpenWatch {
  const watch = new Watch(kc);
  Object.assign(watch, { requestTimeoutMs: options.inactivityMs });
  return (resourceVersion, timeoutSeconds, onEvent, onDone) =>
    watch.watch(
      path,
      { ...options.query, ...(resourceVersion !== undefined ? { resourceVersion } : {}), allowWatchBookmarks: true, timeoutSeconds },
      (type: string, object: unknown) => onEvent(type, object),
      onDone,
    );
}
