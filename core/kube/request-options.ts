import { type ConfigurationOptions, Observable, type ObservableMiddleware, type PatchStrategy } from '@kubernetes/client-node';
import type { Dispatcher } from 'undici';

/**
 * Per-request options for @kubernetes/client-node: a hard timeout (the client has none, and a
 * slow API server must never stall a publish forever) and, for patches, the content type
 * (client-node sends JSON Patch unless told otherwise). Per-call middleware is the
 * observable kind, as `setHeaderOptions` builds it. `pool` (see connection-pool.ts) replaces the
 * per-request connection client-node would open.
 */
export function requestOptions(timeoutMs: number, contentType?: PatchStrategy, pool?: Dispatcher): ConfigurationOptions<ObservableMiddleware> {
  let timer: NodeJS.Timeout | undefined;
  const middleware: ObservableMiddleware = {
    pre: (context) => {
      const controller = new AbortController();
      // A plain timer, cleared on response: AbortSignal.timeout() would keep every request's
      // signal alive for the full timeout.
      timer = setTimeout(() => controller.abort(new Error(`request timed out after ${timeoutMs} ms`)), timeoutMs);
      timer.unref();
      context.setSignal(controller.signal);
      if (contentType) context.setHeaderParam('Content-Type', contentType);
      if (pool) context.setDispatcher(pool);
      return new Observable(Promise.resolve(context));
    },
    post: (response) => {
      clearTimeout(timer);
      return new Observable(Promise.resolve(response));
    },
  };
  return { middleware: [middleware], middlewareMergeStrategy: 'append' };
}
