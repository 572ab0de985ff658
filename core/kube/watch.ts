import { type KubeConfig, Watch } from '@kubernetes/client-node';

export interface WatchRequest {
  /** Resume from here; without one the server first sends every current object as ADDED. */
  resourceVersion?: string;
  /** The server ends the watch after this long. */
  timeoutSeconds: number;
}

export type WatchEventHandler = (type: string, object: unknown) => void;

/**
 * Starts a WATCH with bookmarks; resolves once the server answered (abort the controller to end
 * it). When the request failed, `onDone` has been called with the error by then.
 */
export type StartWatch = (request: WatchRequest, onEvent: WatchEventHandler, onDone: (error: unknown) => void) => Promise<AbortController>;

/**
 * A WATCH on `path` (e.g. /api/v1/nodes), with fixed query parameters such as a field selector.
 * `inactivityMs` is client-node's own limit on a silent stream: it aborts a watch after 30 s
 * without data by default, but the API server sends bookmarks only about once a minute, so a
 * quiet watch would be re-opened every 30 s. Callers keep their own staleness timer as the real
 * limit and pass something above it here. (The field is private in client-node's typings, hence
 * Object.assign.)
 */
export function watchPath(kc: KubeConfig, path: string, options: { inactivityMs: number; query?: Record<string, string> }): StartWatch {
  const watch = new Watch(kc);
  Object.assign(watch, { requestTimeoutMs: options.inactivityMs });
  return ({ resourceVersion, timeoutSeconds }, onEvent, onDone) =>
    watch.watch(
      path,
      { ...options.query, ...(resourceVersion !== undefined ? { resourceVersion } : {}), allowWatchBookmarks: true, timeoutSeconds },
      (type: string, object: unknown) => onEvent(type, object),
      onDone,
    );
}
