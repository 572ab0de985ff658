import { type ConfigurationOptions, Observable, type ObservableMiddleware, type PatchStrategy, type RequestContext, type ResponseContext } from '@kubernetes/client-node';
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

/** Per-call options of @kubernetes/client-node, as `requestOptions` makes them. */
export type RequestOptions = ConfigurationOptions<ObservableMiddleware>;

/** A synchronous look at one request before it is sent and at its answer. */
export interface RequestHook {
  pre?: (context: RequestContext) => void;
  post?: (response: ResponseContext) => void;
}

/** `options` with `hook` run after its own middleware (the timeout's), wrapped the observable way client-node wants. */
export function withRequestHook(options: RequestOptions, hook: RequestHook): RequestOptions {
  const middleware: ObservableMiddleware = {
    pre: (context) => {
      hook.pre?.(context);
      return new Observable(Promise.resolve(context));
    },
    post: (response) => {
      hook.post?.(response);
      return new Observable(Promise.resolve(response));
    },
  };
  return { ...options, middleware: [...(options.middleware ?? []), middleware] };
}

/** `options` whose requests `signal` also aborts (beside their own timeout): a program that stops cancels what is in flight. */
export function withCancel(options: RequestOptions, signal: AbortSignal): RequestOptions {
  return withRequestHook(options, {
    pre: (context) => {
      const timeout = context.getSignal();
      context.setSignal(timeout ? AbortSignal.any([timeout, signal]) : signal);
    },
  });
}
